import { existsSync, readFileSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { MemError, ioError } from '@mem/core';
import { fsyncDirectory } from './durable-fs.js';
import { holdFileLock } from './project-lock.js';
import { FIRST_SEGMENT } from './segment-name.js';

/*
 * A purge rewrites several segments, and no file system renames several files at once. So it
 * stages every new segment beside the old one (`<segment>.purge`, fsynced), then commits by
 * creating one manifest (written as `.tmp`, fsynced, renamed, directory fsynced), then renames
 * the staged files into place and removes the manifest. A crash before the manifest exists
 * leaves the old log (the staged files are litter); after, the new one (the renames are redone).
 */

/** Suffix of a staged segment. Not a segment name, so readers never list it. */
export const STAGED_SUFFIX = '.purge';
/** The commit record of a purge: the segments whose staged copies replace them. */
export const PURGE_MANIFEST = 'purge-pending.json';

/**
 * Finishes or undoes a purge a crash interrupted, under the project's lock: with a manifest,
 * renames what is still staged into place; without one, removes staged files. A no-op (one
 * directory listing) when no purge was interrupted.
 */
export function settlePurge(projectDir: string): void {
  const manifest = join(projectDir, PURGE_MANIFEST);
  try {
    if (existsSync(manifest)) {
      const { segments } = JSON.parse(readFileSync(manifest, 'utf8')) as { segments: string[] };
      // The settler renames a first segment into place as the purge would: see lockStagedFirst.
      const release = lockStagedFirst(projectDir, segments);
      try {
        for (const segment of segments) {
          const staged = join(projectDir, segment + STAGED_SUFFIX);
          if (existsSync(staged)) renameSync(staged, join(projectDir, segment));
        }
        fsyncDirectory(projectDir);
        unlinkSync(manifest);
        fsyncDirectory(projectDir);
      } finally {
        release();
      }
      return;
    }
    if (!existsSync(projectDir)) return;
    const litter = readdirSync(projectDir).filter(
      (name) => name.endsWith(STAGED_SUFFIX) || name === `${PURGE_MANIFEST}.tmp`,
    );
    for (const name of litter) unlinkSync(join(projectDir, name));
    if (litter.length > 0) fsyncDirectory(projectDir);
  } catch (error) {
    throw ioError('settle an interrupted purge in', projectDir, error);
  }
}

/**
 * The project's lock lives on its first segment, and a purge (or the settling of one) holds it
 * on the inode that was there when it started. Renaming a rewritten first segment into place
 * puts a new inode at the path that nobody locks: another process could lock it and settle or
 * append under a purge that is still running. So the staged first segment is locked before
 * the commit point and held until the purge is done: whoever opens the path after the rename
 * waits on it. Returns the release (a no-op when the first segment is not rewritten).
 */
export function lockStagedFirst(projectDir: string, segments: readonly string[]): () => void {
  const staged = join(projectDir, FIRST_SEGMENT + STAGED_SUFFIX);
  if (!segments.includes(FIRST_SEGMENT) || !existsSync(staged)) return () => undefined;
  const release = holdFileLock(staged);
  if (!release)
    throw new MemError(
      'LOCK_FAILED',
      `could not lock the staged first segment ${staged}: another process holds it`,
      { path: staged },
    );
  return release;
}
