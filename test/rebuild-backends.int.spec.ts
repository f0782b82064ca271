import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/*
 * `mem rebuild --from-log` must not drop what it cannot rebuild (issue 9, item 9): with a
 * DATABASE_URL nobody answers, it used to delete items.sqlite and the vault, then fail. Real
 * process, real files, a loopback port that was just closed.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
let root: string;

function mem(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MEM_ROOT: '', DATABASE_URL: '', ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every file under `dir` with its bytes, by relative path. */
function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path));
  }
  return files;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-rebuild-'));
  expect(mem(['log', 'append', '--project', 'demo', '--file', sample]).code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem rebuild --from-log with an unreachable DATABASE_URL', () => {
  it('fails with a typed error and leaves items.sqlite and the vault byte-identical', async () => {
    const items = readFileSync(join(root, '.mem', 'items.sqlite'));
    const vault = snapshot(join(root, 'vault'));
    expect(vault.size).toBeGreaterThan(0);
    const url = `postgres://mem:mem@127.0.0.1:${await closedPort()}/mem`;
    const result = mem(['rebuild', '--from-log', '--json'], { DATABASE_URL: url });
    expect(result.code).not.toBe(0);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'IO_FAILED',
      details: { url: expect.stringContaining('127.0.0.1') },
    });
    expect(readFileSync(join(root, '.mem', 'items.sqlite')).equals(items)).toBe(true);
    expect(snapshot(join(root, 'vault'))).toEqual(vault);
  });
});
