import { join } from 'node:path';
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
 * | embedded Postgres  | a PGlite data directory, open in one process at a time     | `<dir>.lock` (`.mem/pg.lock`)         |
 *
 * Readers take no lock: a holder of the projection lock marks the projections as changing in
 * `.mem/projections.generation` (projection-generation.ts), and a read that saw it move waits
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

/**
 * Takes the lock of the PGlite data directory `dir` for as long as it stays open: PGlite serves
 * one process, two processes opening one directory corrupt it, and PGlite does not stop them.
 * Returns the release; throws CONFLICT naming the directory when another process (or another
 * open in this one) holds it.
 */
export function lockPgliteDir(dir: string): () => void {
  const release = holdFileLock(pgliteLockPath(dir));
  if (release) return release;
  throw new MemError(
    'CONFLICT',
    `the embedded pgvector projection ${dir} is open in another process: PGlite serves one process at a time (set DATABASE_URL to share the projection between processes)`,
    { dir },
  );
}
