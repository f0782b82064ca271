import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { MemError, fsyncDirectory, fsyncPath } from '@mem/core';

/** Prefix of the sibling directory a new cluster is made in before it is renamed into place. */
export const INIT_PREFIX = '.init-';

/*
 * Why a child process: PGlite's initdb runs a second WebAssembly module beside Postgres's and
 * copies Postgres's whole heap, so the process that runs it peaks at ~790 MB, and a WASM heap
 * never shrinks. In a child, that memory goes when the child exits; the process that opens the
 * cluster (a first ingest, a server) starts at the ~170 MB of an existing cluster.
 * Why a temp directory and a rename: a cluster is whole or absent. initdb killed halfway (a
 * crash, a full disk) leaves files but no cluster; in the temp directory those are never opened
 * and the next creator clears them, while a rename makes the finished cluster appear at once.
 */
const CHILD_SCRIPT = `
const [pglitePath, vectorPath, dir, params] = process.argv.slice(1);
// The parent gone (killed), nothing will rename this cluster into place: stop making it.
process.on('disconnect', () => process.exit(1));
const { PGlite } = require(pglitePath);
const { vector } = require(vectorPath);
PGlite.create(dir, { extensions: { vector }, startParams: JSON.parse(params) })
  .then((db) => db.close())
  .then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(String((error && error.stack) || error));
      process.exit(1);
    },
  );
`;

/**
 * Makes a new cluster at `dir` (absent, or the empty directory the registry made) by initdb in a
 * child process, or (tests) by copying `template`, in a sibling temp directory renamed over `dir`
 * once whole and flushed. The caller holds `dir`'s lock, so a temp directory left beside it is a
 * dead creator's and is removed first. A `dir` holding files but no cluster is refused, untouched.
 */
export async function initCluster(
  dir: string,
  startParams: readonly string[],
  template?: string | null,
): Promise<void> {
  clearDeadInits(dir);
  const temp = mkdtempSync(`${dir}${INIT_PREFIX}`);
  try {
    if (template) cpSync(template, temp, { recursive: true });
    else await initdbInChild(temp, startParams);
    fsyncTree(temp);
    renameInto(temp, dir);
    fsyncDirectory(dirname(dir));
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}

/** Runs PGlite's initdb for `dir` in a child process; rejects with its stderr when it fails or is killed. */
async function initdbInChild(dir: string, startParams: readonly string[]): Promise<void> {
  const require = createRequire(import.meta.url);
  const child = spawn(
    process.execPath,
    [
      '-e',
      CHILD_SCRIPT,
      require.resolve('@electric-sql/pglite'),
      require.resolve('@electric-sql/pglite-pgvector'),
      dir,
      JSON.stringify(startParams),
    ],
    // The child inherits this process's environment (spawn's default); nothing here reads it.
    { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>(
    (resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal }));
    },
  );
  if (code === 0) return;
  throw new Error(
    `initdb (pid ${child.pid}) ${signal ? `was killed by ${signal}` : `exited with ${code}`}${stderr ? `: ${stderr.trim()}` : ''}`,
  );
}

/** Removes the temp directories of creators that died before their rename (`dir`'s lock is held). */
function clearDeadInits(dir: string): void {
  const prefix = `${basename(dir)}${INIT_PREFIX}`;
  let names: string[];
  try {
    names = readdirSync(dirname(dir));
  } catch {
    return;
  }
  for (const name of names)
    if (name.startsWith(prefix)) rmSync(join(dirname(dir), name), { recursive: true, force: true });
}

/** rename(2) replaces an empty directory in one step; one holding anything is not a cluster to overwrite. */
function renameInto(temp: string, dir: string): void {
  try {
    renameSync(temp, dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    throw new MemError(
      'IO_FAILED',
      `${dir} holds files but no PGlite cluster (no PG_VERSION): left as it is; remove it and the next open creates the cluster (the projection is rebuilt from the log)`,
      { dir },
    );
  }
}

/** fsyncs every file and directory under `root`, so the renamed cluster is whole after a power cut too. */
function fsyncTree(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) fsyncPath(join(entry.parentPath, entry.name));
    else if (entry.isDirectory()) fsyncDirectory(join(entry.parentPath, entry.name));
  fsyncDirectory(root);
}
