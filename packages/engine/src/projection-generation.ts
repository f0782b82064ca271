import { closeSync, constants, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ioError, PRIVATE_FILE_MODE } from '@mem/core';

/*
 * The projection generation: a sequence lock over every projection of a data root. Trigger: a
 * read that spans two projections (SQLite and pgvector) or several statements, in any process,
 * while a catch-up or rebuild of another one (or of this one) commits. Why: the two stores
 * cannot commit together — pgvector commits every batch, SQLite at the seal — so a read between
 * those commits sees a batch half applied; a rebuild empties both first. A shared lock around
 * every read would close that too, but a stream of reads can then starve the catch-up.
 * Outcome: a writer makes the generation odd (under the projection lock) before its first write
 * to any projection and even again when it lets the lock go; a read that began at an even
 * generation and ends at the same one saw no commit, and any other read is taken again once the
 * writer is done.
 *
 * The generation is the size of `.mem/projections.changes`, a file that only grows: the writer
 * appends one byte to make it odd (`+`) and one to make it even (a newline). Why the size and
 * not a number in the file (`.mem/projections.generation` until stop 35, replaced by writing a
 * file beside it and renaming it over): a file's size changes in one step, so a reader (one
 * stat) never sees half of it, and an append is one write to a file that is there, where the
 * rename was two file creations and two renames a catch-up, ~0.13 ms CPU each (stop 35). It
 * grows two bytes a catch-up that changed something, against the kilobytes of log that catch-up
 * applied. A root written before stop 35 starts at 0 here; its old file is not read (derived
 * state, like the rest of `.mem/`). Writers are serialised by the lock, so the file has one
 * writer at a time; nothing is fsynced: an odd size a crash left is made even by the next holder
 * of the lock, which is where a reader that saw it waits.
 */

/** The file whose size is the generation. */
export function generationPath(stateDir: string): string {
  return join(stateDir, 'projections.changes');
}

/**
 * The generation when no writer is changing a projection; null while one is (odd). 0 before
 * any.
 */
export function settledGeneration(stateDir: string): number | null {
  const size = generationOf(stateDir);
  return size % 2 === 1 ? null : size;
}

/** Marks the projections as changing, before a writer's first write (idempotent while odd). Under the projection lock. */
export function beginProjectionChange(stateDir: string): void {
  if (generationOf(stateDir) % 2 === 0) appendMark(stateDir, '+');
}

/** Marks the projections as settled when the lock is let go (nothing to do when they are). Under the projection lock. */
export function endProjectionChange(stateDir: string): void {
  if (generationOf(stateDir) % 2 === 1) appendMark(stateDir, '\n');
}

/** The file's size: one stat, which sees the size before an append or after it, never between. */
function generationOf(stateDir: string): number {
  const path = generationPath(stateDir);
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  } catch (error) {
    throw ioError('read', path, error);
  }
}

/**
 * Appends one byte. The file is opened per mark, not held: a `.mem/` removed and made again (a
 * reset root) must not leave a writer appending to a file no reader sees.
 */
function appendMark(stateDir: string, mark: '+' | '\n'): void {
  const path = generationPath(stateDir);
  try {
    const fd = openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
      PRIVATE_FILE_MODE,
    );
    try {
      writeSync(fd, mark);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    // A full disk is NO_SPACE naming this file: with the item store kept open between
    // catch-ups, this mark is the first write of a catch-up under `.mem/`.
    throw ioError('write', path, error);
  }
}
