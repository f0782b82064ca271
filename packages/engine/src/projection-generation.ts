import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ioError } from '@mem/core';

/*
 * The projection generation: a sequence lock over every projection of a data root, kept in
 * `.mem/projections.generation`. Trigger: a read that spans two projections (SQLite and
 * pgvector) or several statements, in any process, while a catch-up or rebuild of another one
 * (or of this one) commits. Why: the two stores cannot commit together — pgvector commits every
 * batch, SQLite at the seal — so a read between those commits sees a batch half applied; a rebuild
 * empties both first. A shared lock around every read would close that too, but a stream of
 * reads can then starve the catch-up. Outcome: a writer makes the number odd (under the
 * projection lock) before its first write to any projection and even again when it lets the
 * lock go; a read that began at an even number and ends at the same one saw no commit, and any
 * other read is taken again once the writer is done. Writers are serialised by the lock, so the
 * file has one writer at a time; nothing is fsynced: an odd number a crash left is made even by
 * the next holder of the lock, which is where a reader that saw it waits.
 */

/** The file holding the generation. */
export function generationPath(stateDir: string): string {
  return join(stateDir, 'projections.generation');
}

/**
 * The generation when no writer is changing a projection; null while one is (odd), or when the
 * file is being rewritten (empty) — a reader then waits for the projection lock. 0 before any.
 */
export function settledGeneration(stateDir: string): number | null {
  const value = readGeneration(stateDir);
  return value === null || value % 2 === 1 ? null : value;
}

/** Marks the projections as changing, before a writer's first write (idempotent while odd). Under the projection lock. */
export function beginProjectionChange(stateDir: string): void {
  const value = readGeneration(stateDir) ?? 0;
  if (value % 2 === 0) writeGeneration(stateDir, value + 1);
}

/** Marks the projections as settled when the lock is let go (nothing to do when they are). Under the projection lock. */
export function endProjectionChange(stateDir: string): void {
  const value = readGeneration(stateDir);
  if (value === null) writeGeneration(stateDir, 0);
  else if (value % 2 === 1) writeGeneration(stateDir, value + 1);
}

function readGeneration(stateDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(generationPath(stateDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  return /^\d+\n$/.test(text) ? Number(text.trim()) : null;
}

/**
 * Written beside and renamed over, so a reader sees the old number or the new one, never a
 * file half written (which it could only treat as "changing" and wait on).
 */
function writeGeneration(stateDir: string, value: number): void {
  const path = generationPath(stateDir);
  try {
    writeFileSync(`${path}.next`, `${value}\n`, { mode: 0o600 });
    renameSync(`${path}.next`, path);
  } catch (error) {
    // A full disk is NO_SPACE naming this file: with the item store kept open between
    // catch-ups, this mark is the first write of a catch-up under `.mem/`.
    throw ioError('write', `${path}.next`, error);
  }
}
