import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemId } from '@mem/core';
import { appendedInProcess, memInProcess } from './support/mem-cli.js';

/*
 * Stop-31 review, finding 1: a fact written before cited paths were confined, with `--source
 * /abs/path` outside the data root, read after the upgrade as `unknown` / `source_unreadable`
 * with next action `confirm`; it was held back from find, and confirming it changed nothing
 * (the citation stays unread), so it was held back for good. It now reads `source_outside_root`,
 * next action `correct`, and `mem items update ID --source PATH --source-sha256 HEX --reason TEXT` with a path
 * inside the root brings it back. Through `mem` in process, the legacy fact appended as a log
 * written before the upgrade holds it (`mem log append` takes events as they are).
 */
const NOW = { MEM_NOW: '2026-12-01T00:00:00Z' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const HOSTS = 'build-01\n';
let base: string;
let root: string;
let id: string;

type Warning = { id: string; state: string; reason: string; next_action: string };
type Found = { items: { id: string }[]; freshness_warnings: Warning[] };

async function mem(...args: string[]): Promise<Record<string, unknown>> {
  const run = await memInProcess(['--root', root, ...args, '--json'], { env: NOW });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const find = () =>
  mem('items', 'find', '--query', 'hostname', '--project', 'demo') as Promise<Found>;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mem-outside-upgrade-'));
  root = join(base, 'root');
  const outside = join(base, 'hostname');
  writeFileSync(outside, HOSTS);
  const file = join(base, 'legacy.jsonl');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'item_added',
      item_type: 'fact',
      summary: 'The hostname of the build box is build-01',
      source_uri: outside,
      source_sha256: sha256(HOSTS),
    }) + '\n',
  );
  await appendedInProcess(root, file);
  id = itemId('demo', 1);
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a fact citing a path outside the data root, from a log written before the upgrade', () => {
  it('is held back as source_outside_root, settled by a correction; confirming leaves it held back', async () => {
    const before = await find();
    expect(before.items).toEqual([]);
    expect(before.freshness_warnings).toEqual([
      expect.objectContaining({
        id,
        state: 'unknown',
        reason: 'source_outside_root',
        next_action: 'correct',
      }),
    ]);
    await mem(
      'items',
      'confirm',
      id,
      '--project',
      'demo',
      '--review-after',
      '2027-06-01T00:00:00Z',
    );
    expect((await find()).items).toEqual([]);
  });

  it('comes back once `mem items update --source` cites a path inside the root', async () => {
    // A refused new citation (still outside) changes nothing.
    const refused = await memInProcess(
      [
        '--root',
        root,
        'items',
        'update',
        id,
        '--project',
        'demo',
        '--source',
        join(base, 'hostname'),
        '--source-sha256',
        sha256(HOSTS),
        '--reason',
        'cite it inside',
      ],
      { env: NOW },
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--source: \S+: absolute path outside the data root/);
    expect((await find()).items).toEqual([]);

    writeFileSync(join(root, 'hostname.md'), HOSTS);
    await mem(
      'items',
      'update',
      id,
      '--project',
      'demo',
      '--source',
      'hostname.md',
      '--source-sha256',
      sha256(HOSTS),
      '--reason',
      'cite a copy inside the data root',
    );
    const after = await find();
    expect(after.items.map((i) => i.id)).toEqual([id]);
    expect(after.freshness_warnings).toEqual([]);
  });
});
