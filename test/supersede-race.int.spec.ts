import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemError, loadConfig } from '@mem/core';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { openRegistry, type Registry } from '@mem/registry';

/*
 * Two supersedes of one line at once. Each checked "not superseded yet" on a log read before
 * the other appended, so both appended: the log then held two supersessions of the line, and
 * SQLite kept the first in superseded_line but the second in node.superseded_by. The check and
 * the append now run as one step per project: exactly one is written, the other is refused
 * (CONFLICT naming the one written), and the log holds one supersession of the line.
 */
const repo = join(import.meta.dirname, '..');
const OLD_BLOCK = '6d6af223';
let root: string;
let registry: Registry;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-supersede-race-'));
  for (const dir of ['log', 'queries'])
    cpSync(join(repo, dir), join(root, dir), { recursive: true });
  registry = await openRegistry({
    engine: new Engine({ root, projectors: [projectorSqlite, projectorVault] }),
    version: '0.0.0-test',
    config: loadConfig({}),
    runJobs: false,
  });
}, 180_000);
afterAll(async () => {
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

describe('two supersedes of one line at once', () => {
  it('writes one and refuses the other with CONFLICT', async () => {
    const caller = registry.local('local:test');
    const go = (by: string) =>
      registry.invoke('supersede', caller, { project: 'demo', ref: OLD_BLOCK, by, reason: 'race' });
    const settled = await Promise.allSettled([
      go('Race variant one of the theme preview line'),
      go('Race variant two of the theme preview line'),
    ]);
    const written = settled.filter((s) => s.status === 'fulfilled');
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
    expect(written).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(MemError);
    const error = refused[0] as MemError;
    expect(error.code).toBe('CONFLICT');
    const out = (written[0] as PromiseFulfilledResult<{ target: string; after_sha256: string }>)
      .value;
    expect(error.details).toMatchObject({ superseded_by: out.after_sha256 });

    const history = (await registry.invoke('history', caller, {
      project: 'demo',
      ref: out.target,
    })) as { entries: { type: string; target: string }[] };
    expect(
      history.entries.filter((e) => e.type === 'superseded' && e.target === out.target),
    ).toHaveLength(1);
  });
});
