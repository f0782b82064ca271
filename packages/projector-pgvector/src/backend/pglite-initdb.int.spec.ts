import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * A new embedded cluster, made by real processes through the built registry
 * (packages/projector-pgvector/dist, which `tsc -b` builds) with no template: initdb itself.
 * initdb peaks at ~790 MB in whatever process runs it, and a WASM heap never shrinks, so it runs
 * in a child; and a cluster is whole or absent, whoever is killed while it is made.
 */
const registry = join(import.meta.dirname, '..', '..', 'dist', 'backend', 'pglite-registry.js');
const openScript = `const { acquirePglite } = await import(${JSON.stringify(registry)});
try {
  const { db, release } = await acquirePglite(process.argv[1]);
  const [row] = (await db.query("SELECT current_setting('shared_buffers') AS shared_buffers")).rows;
  await release();
  process.stdout.write(JSON.stringify({ opened: true, row, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
} catch (error) {
  process.stdout.write(JSON.stringify({ code: error.code, message: error.message }));
}`;
/** Each case runs initdb once or twice in full: ~10 s each on an idle 2-core box, ~60 s loaded. */
const INITDB_TEST_MS = 300_000;

interface Opened {
  opened?: true;
  row?: { shared_buffers: string };
  maxRssMB?: number;
  code?: string;
  message?: string;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newParent(): string {
  const parent = mkdtempSync(join(tmpdir(), 'mem-pg-initdb-'));
  dirs.push(parent);
  return parent;
}

async function openInProcess(dir: string): Promise<Opened> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', openScript, dir],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as Opened;
}

/** Files (not directories) under `dir`, recursively; 0 when it does not exist. */
function fileCount(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile())
    .length;
}

/** The lock's files beside the data directory: the lock and the note naming its holder's pid. */
const LOCK_FILES = ['pg.lock', 'pg.holder'];

/** Files anywhere under `parent` but the lock's files beside the data directory. */
function clusterFiles(parent: string): number {
  return readdirSync(parent)
    .filter((name) => !LOCK_FILES.includes(name))
    .reduce((n, name) => n + fileCount(join(parent, name)), 0);
}

/** What `parent` holds but the holder note (written by whoever takes the lock, left on a kill). */
function besideData(parent: string): string[] {
  return readdirSync(parent)
    .filter((name) => name !== 'pg.holder')
    .sort();
}

/** Starts an opener of `dir` in its own process group; resolves once initdb has written files. */
async function openerMidInitdb(parent: string): Promise<ChildProcess> {
  const opener = spawn(
    process.execPath,
    ['--input-type=module', '-e', openScript, join(parent, 'pg')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  );
  const deadline = Date.now() + INITDB_TEST_MS / 2;
  while (clusterFiles(parent) < 20) {
    if (opener.exitCode !== null)
      throw new Error(`the opener exited (${opener.exitCode}) before initdb wrote files`);
    if (Date.now() > deadline) throw new Error('initdb wrote no files in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return opener;
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe('a new embedded cluster (real processes, real initdb)', () => {
  it(
    'the process that opens a new directory does not hold initdb: its peak RSS stays under 400 MB (~790 MB when initdb ran in it)',
    async () => {
      expect(existsSync(registry), `${registry}: run npx tsc -b`).toBe(true);
      const dir = join(newParent(), 'pg');
      const result = await openInProcess(dir);
      expect(result).toMatchObject({ opened: true, row: { shared_buffers: '8MB' } });
      expect(result.maxRssMB).toBeLessThan(400);
      expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    },
    INITDB_TEST_MS,
  );

  it(
    'an opener SIGKILLed (with its group) mid-initdb leaves no cluster files in the data directory, and the next open makes a whole cluster',
    async () => {
      const parent = newParent();
      const dir = join(parent, 'pg');
      const opener = await openerMidInitdb(parent);
      const exited = new Promise((resolve) => opener.once('exit', resolve));
      process.kill(-opener.pid!, 'SIGKILL');
      await exited;
      expect(fileCount(dir), 'files a killed initdb left in the data directory').toBe(0);
      expect(await openInProcess(dir)).toMatchObject({ opened: true });
      expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
      // The dead creator's temp directory is cleared by the next creator.
      expect(besideData(parent)).toEqual(['pg', 'pg.lock']);
    },
    INITDB_TEST_MS,
  );

  it(
    'initdb SIGKILLed alone fails the open with IO_FAILED naming the directory, creates nothing, and the next open succeeds',
    async () => {
      const parent = newParent();
      const dir = join(parent, 'pg');
      const opener = await openerMidInitdb(parent);
      let out = '';
      opener.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise((resolve) => opener.once('exit', resolve));
      try {
        const initdb = childrenOf(opener.pid!);
        expect(initdb, 'the opener runs initdb in a child process').toHaveLength(1);
        process.kill(initdb[0]!, 'SIGKILL');
        await exited;
      } finally {
        if (opener.exitCode === null) process.kill(-opener.pid!, 'SIGKILL');
        await exited;
      }
      const failed = JSON.parse(out) as Opened;
      expect(failed.code).toBe('IO_FAILED');
      expect(failed.message).toContain(dir);
      expect(failed.message).toContain('SIGKILL');
      expect(fileCount(dir)).toBe(0);
      expect(besideData(parent)).toEqual(['pg', 'pg.lock']);
      expect(await openInProcess(dir)).toMatchObject({ opened: true });
    },
    INITDB_TEST_MS,
  );
});
