import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usePgliteWire } from '../packages/projector-pgvector/test/pglite-servers.js';

/*
 * `mem verify` with DATABASE_URL rebuilds the pgvector projection into a scratch schema of the
 * user's database (issue 9, item 10): it must drop it again, after a verify that passes and after
 * one that fails. A PGlite served over the wire is the database; the built CLI runs as a real
 * process (asynchronously: the server answers from this process's event loop).
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const run = promisify(execFile);
const wire = usePgliteWire();
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-verify-schema-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function mem(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [bin, '--root', root, ...args], {
      env: { ...process.env, MEM_ROOT: '', DATABASE_URL: wire.url },
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function memSchemas(): Promise<string[]> {
  const { rows } = await wire.db.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'mem\\_%' ORDER BY nspname`,
  );
  return rows.map((r) => r.name);
}

describe('mem verify with DATABASE_URL', () => {
  it('leaves no scratch schema behind, whether it passes or fails', async () => {
    expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
    const live = await memSchemas();
    expect(live).toHaveLength(1);

    expect(await mem(['verify'])).toMatchObject({ code: 0 });
    expect(await memSchemas()).toEqual(live);

    const note = join(root, 'vault', 'demo', 'infra-root-causes.md');
    writeFileSync(note, `${readFileSync(note, 'utf8')}\nmy own line\n`);
    const failed = await mem(['verify']);
    expect(failed.code).toBe(3);
    expect(failed.stdout).toMatch(/infra-root-causes\.md differs from a rebuild/);
    expect(await memSchemas()).toEqual(live);
  });
});
