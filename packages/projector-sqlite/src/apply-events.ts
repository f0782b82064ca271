import { MemError, isMemError } from '@mem/core';
import type { ProjectionBatch, ProjectionPosition } from '@mem/engine';
import { checkStart } from '@mem/engine';
import type { ItemStoreHandle } from './handle.js';
import { planEvent } from './plan.js';
import type { PlannedWrite } from './planned-write.js';
import { isDiskFull } from './disk-full.js';
import { noteItemBirth } from './item-births.js';
import { flushOrientPending } from './orient-triggers.js';
import { TEXT_REWRITES } from './text-rewrites.js';

/** Last applied position of `project`, or null. */
export function readPosition(handle: ItemStoreHandle, project: string): ProjectionPosition | null {
  const row = handle.statements.readPosition.get(project) as ProjectionPosition | undefined;
  return row ? { seq: row.seq, head: row.head } : null;
}

/**
 * Events applied since the last commit after which `applyEvents` commits. Why batches share a
 * transaction at all: a commit costs a journal write of every page the batch dirtied (node
 * ids and shas are random keys), which measured ~40% of apply time at one commit per
 * engine batch of 2000. Why not one transaction for a whole rebuild: readers of the live
 * file wait while it holds its write lock, so it is released every so often.
 */
export const COMMIT_EVERY_EVENTS = 50_000;

/**
 * The imperative shell: plans every event first (nothing is written if one cannot be
 * planned), then runs the planned writes, the new position and the unsealed mark in place in
 * the live file, inside the store's write transaction: as a savepoint when earlier batches
 * are open in it, so that a failed batch rolls back to its savepoint and leaves them applied;
 * directly when this batch opened it, and a failed batch then rolls the transaction back
 * (there is nothing earlier to keep). `commitPending` (at seal, close, or every
 * COMMIT_EVERY_EVENTS) makes them durable. A crash before that loses only work the engine
 * re-applies from the log: the position rolls back with the rows.
 *
 * Why not always a savepoint: SQLite copies each page of the file first changed inside a
 * savepoint into its sub-journal (a temp file past 64 KiB), in case of a rollback to it. At
 * 100 k items an add_items of 100 changes ~590 such pages; that copy cost ~10 ms CPU of a ~34 ms
 * apply (statements and COMMIT, p50, load 3), for a rollback a ROLLBACK does as well when the
 * transaction holds this batch alone (a catch-up after a write: the seal commits each).
 */
export function applyEvents(
  handle: ItemStoreHandle,
  project: string,
  batch: ProjectionBatch,
): void {
  const { events, after, through } = batch;
  const plans: { seq: number; writes: PlannedWrite[] }[] = events.map(({ event }) => ({
    seq: event.seq,
    writes: planEvent(event),
  }));
  const { db, statements } = handle;
  const write = () => {
    checkStart(project, readPosition(handle, project), after, 'item store');
    for (const { seq, writes } of plans) {
      for (const write of writes) {
        run(handle, project, seq, write);
        if (TEXT_REWRITES.has(write.statement)) handle.rewrote = true;
      }
    }
    // The tree totals, node_fts and item_fts follow item and node: the connection's triggers
    // note what the batch changed, added and indexed here once (orient-triggers.ts,
    // fts-triggers.ts).
    flushNotes(handle, project, through.seq);
    statements.writePosition.run({ project, seq: through.seq, head: through.head });
    if (!handle.dirty) statements.markUnsealed.run();
  };
  if (db.inTransaction) {
    // Nested in the open transaction, better-sqlite3 runs this as a savepoint.
    db.transaction(write)();
  } else {
    db.exec('BEGIN IMMEDIATE');
    try {
      write();
    } catch (error) {
      // Some failures (a full disk, I/O) have already rolled the transaction back.
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  handle.dirty = true;
  handle.uncommitted += events.length;
  if (handle.uncommitted >= COMMIT_EVERY_EVENTS) commitPending(handle);
}

/** Commits what `applyEvents` left in the open transaction. */
export function commitPending(handle: ItemStoreHandle): void {
  if (handle.db.inTransaction) handle.db.exec('COMMIT');
  handle.uncommitted = 0;
}

/** Adds and indexes what the batch through `seq` noted for the tree totals, node_fts and item_fts. */
function flushNotes(handle: ItemStoreHandle, project: string, seq: number): void {
  try {
    flushOrientPending(handle.statements.flushOrient);
    for (const statement of handle.statements.flushFts) statement.run();
  } catch (error) {
    if (isDiskFull(error)) throw error;
    throw new MemError(
      'PROJECTION_FAILED',
      `${project} through seq ${seq}: adding the batch's tree totals or indexing its text failed: ${(error as Error).message}`,
      { project, seq, sqliteCode: (error as { code?: unknown }).code },
      { cause: error },
    );
  }
}

function run(handle: ItemStoreHandle, project: string, seq: number, write: PlannedWrite): void {
  try {
    const { changes } = handle.statements.planned(write.statement).run(write.params);
    // No trigger notes a new item: it is noted here, once written (item-births.ts).
    if (write.statement === 'insertItem' && changes > 0)
      noteItemBirth(handle.statements.itemBirth, write.params);
  } catch (error) {
    if (isMemError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    if (write.statement === 'insertNode' && code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      throw new MemError(
        'CONFLICT',
        `${project} seq ${seq}: node id ${write.params.id} of (${write.params.level}, ${write.params.sha256}) collides with another node's id`,
        {
          project,
          seq,
          id: write.params.id,
          level: write.params.level,
          sha256: write.params.sha256,
        },
        { cause: error },
      );
    }
    // A full disk is not this statement's fault: the projector's namingFullDisk says NO_SPACE.
    if (isDiskFull(error)) throw error;
    throw new MemError(
      'PROJECTION_FAILED',
      `${project} seq ${seq}: ${write.statement} failed: ${(error as Error).message}`,
      { project, seq, statement: write.statement, sqliteCode: code },
      { cause: error },
    );
  }
}
