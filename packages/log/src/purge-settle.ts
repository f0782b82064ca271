import { existsSync, readFileSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ioError } from '@mem/core';
import { fsyncDirectory } from './durable-fs.js';

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
      for (const segment of segments) {
        const staged = join(projectDir, segment + STAGED_SUFFIX);
        if (existsSync(staged)) renameSync(staged, join(projectDir, segment));
      }
      fsyncDirectory(projectDir);
      unlinkSync(manifest);
      fsyncDirectory(projectDir);
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
