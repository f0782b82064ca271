import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * `mem items read ID` says it reads "whole rows", and printed one line (id, type, summary) in
 * text mode: the detail, dates and relations were only in --json. It now prints the line and
 * then each field that holds something.
 */
let root: string;
const mem = (args: readonly string[]) => memInProcess(['--root', root, ...args]);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-items-read-text-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mem items read in text mode', () => {
  it('prints the whole row: the item line, then every field that holds something', async () => {
    const file = join(root, 'items.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({
        type: 'fact',
        summary: 'Deploys go out on Tuesdays',
        detail: 'Freeze on Monday.\nRelease notes by noon.',
        tags: ['deploy', 'calendar'],
        valid_until: '2030-01-01T00:00:00Z',
      })}\n`,
    );
    const added = await mem(['items', 'add', '--file', file, '--project', 'shop', '--json']);
    expect(added.code, added.stderr).toBe(0);
    const id = (JSON.parse(added.stdout) as { ids: string[] }).ids[0]!;
    const read = await mem(['items', 'read', id, '--project', 'shop']);
    expect(read.code, read.stderr).toBe(0);
    const lines = read.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${id} fact Deploys go out on Tuesdays`);
    expect(lines.slice(1, 6)).toEqual([
      '  project: shop',
      '  detail: Freeze on Monday.',
      '    Release notes by noon.',
      '  tags: calendar, deploy',
      '  valid_until: 2030-01-01T00:00:00Z',
    ]);
    expect(lines.slice(6)).toEqual([
      expect.stringMatching(/^ {2}created: seq \d+ at \d{4}-/),
      expect.stringMatching(/^ {2}updated: seq \d+ at \d{4}-/),
    ]);
  });
});
