import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MemError } from '@mem/core';
import { holdFileLock, withFileLock } from '@mem/log';

/*
 * Every lock of a data root, named here and nowhere else. All are kernel locks (an OFD lock on
 * Linux, flock on macOS, through @mem/log's one primitive): a lock dies with its holder, so a
 * SIGKILLed process never leaves one behind, and nothing written in a lock file is trusted.
 *
 * | lock               | guards                                                     | file                                  |
 * |--------------------|------------------------------------------------------------|---------------------------------------|
 * | log append         | one project's journal: one batch appends at a time          | `log/<project>/000001.jsonl` (in @mem/log, which cannot import this module) |
 * | projections        | every projection: catch-up, rebuild, verify run one at a time | `.mem/projections.lock`               |
 * | extraction         | one extractor (ingest, synthesize) per project at a time    | `.mem/locks/extract-<project>.lock`   |
 * | ingest job         | one run of a queued ingest job per project, across processes | `.mem/locks/job-<project>.lock`       |
 * | item writes        | one project's item check-then-append (add, remember, update, resolve, relate, delete, attention, pin, confirm), and an Idempotency-Key's lookup with the write it runs | `.mem/locks/items-<project>.lock` |
 * | embedded Postgres  | a PGlite data directory, open in one process at a time     | `<dir>.lock` (`.mem/pg.lock`; `<dir>.holder` names the taker, a hint) |
 *
 * Readers take no lock: a holder of the projection lock marks the projections as changing in
 * `.mem/projections.changes` (projection-generation.ts), and a read that saw it move waits
 * for the lock and reads again.
 */

/** The projection lock's file: catch-up, rebuild and verify hold it. */
export function projectionLockPath(stateDir: string): string {
  return join(stateDir, 'projections.lock');
}

/** The exclusive section of one project's extractor (ingest and synthesize): one at a time, or two would continue from the same prior state. */
export function extractionLock(project: string): string {
  return `extract-${project}`;
}

/** The exclusive section of one project's queued ingest jobs: a job resumed by two processes would run twice. */
export function ingestJobLock(project: string): string {
  return `job-${project}`;
}

/**
 * The exclusive section of one project's item writes: the store is caught up and the checks
 * read inside it, and the append lands before it ends, so two writers never both pass a check
 * the other's write would fail (a second parent, a cycle, a stranded anchor).
 */
export function itemWriteLock(project: string): string {
  return `items-${project}`;
}

/** The file of a named exclusive section (`engine.exclusive`), e.g. `extract-<project>`. */
export function exclusiveLockPath(stateDir: string, name: string): string {
  return join(stateDir, 'locks', `${name}.lock`);
}

/** The file beside a PGlite data directory that says it is open. */
export function pgliteLockPath(dir: string): string {
  return `${dir}.lock`;
}

/** Runs `fn` holding the lock at `path`, waiting for it when another process holds it. */
export function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  return withFileLock(path, fn);
}

/** The note beside a PGlite directory's lock naming the process that took it (pid and command). */
export function pgliteHolderPath(dir: string): string {
  return `${dir}.holder`;
}

/** Who a holder note says holds the lock: its pid, and its command line where the system shows it. */
export interface LockHolder {
  pid: number;
  command: string | null;
}

const HOLDER_MAX_BYTES = 4096;
const COMMAND_MAX_CHARS = 200;

/**
 * A live process's command line as `ps` shows it (Linux's /proc; null elsewhere or when gone),
 * read when a refusal is written, never stored: a note holding argv would keep a command's text
 * arguments (a line given to `mem forget`) under the data root after a crash.
 */
function commandOf(pid: number): string | null {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const words = argv.map((word, i) =>
      i <= 1 ? basename(word).replace(/\.(c|m)?js$/u, '') : word,
    );
    // eslint-disable-next-line no-control-regex
    const command = words.join(' ').replace(/[\u0000-\u001f\u007f]/gu, ' ');
    return command.length > COMMAND_MAX_CHARS
      ? `${command.slice(0, COMMAND_MAX_CHARS)}…`
      : command || null;
  } catch {
    return null;
  }
}

/**
 * The holder the note names, when the note parses and its pid is a live process; null
 * otherwise. The note is a hint for the person reading a refusal, never a lock: the kernel lock
 * decides, and a note left by a killed holder (or written by hand) names a dead pid or nothing.
 */
export function readLockHolder(dir: string): LockHolder | null {
  let raw: unknown;
  try {
    const text = readFileSync(pgliteHolderPath(dir), 'utf8');
    if (Buffer.byteLength(text) > HOLDER_MAX_BYTES) return null;
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { pid } = raw as { pid?: unknown };
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return { pid, command: commandOf(pid) };
}

/**
 * Takes the lock of the PGlite data directory `dir` for as long as it stays open: PGlite serves
 * one process, two processes opening one directory corrupt it, and PGlite does not stop them.
 * Returns the release; throws CONFLICT naming the directory when another process (or another
 * open in this one) holds it. Trigger: the stop-32 walk (`mem verify` beside `mem serve` said
 * only "open in another process"). Why: a person must know which process to stop. Outcome: the
 * taker writes a holder note (its pid) and the refusal names the pid, its command line and what
 * to do.
 */
export function lockPgliteDir(dir: string): () => void {
  const release = holdFileLock(pgliteLockPath(dir));
  if (release) {
    const me = { pid: process.pid };
    try {
      writeFileSync(pgliteHolderPath(dir), `${JSON.stringify(me)}\n`, { mode: 0o600 });
    } catch {
      // A hint only: a root whose note cannot be written still locks; a refusal then names no pid.
    }
    return () => {
      if (readLockHolder(dir)?.pid === me.pid) rmSync(pgliteHolderPath(dir), { force: true });
      release();
    };
  }
  const holder = readLockHolder(dir);
  const who = holder
    ? ` (pid ${holder.pid}: ${holder.command})`
    : ' (its holder left no note naming it)';
  const stop = holder
    ? `stop pid ${holder.pid}`
    : 'stop the other `mem` process on this root (a `mem serve` or `mem mcp`)';
  throw new MemError(
    'CONFLICT',
    `the embedded pgvector projection ${dir} is open in another process${who}: PGlite serves one process at a time; ${stop} and run this again, or set DATABASE_URL to share the projection between processes`,
    { dir, holder },
  );
}
