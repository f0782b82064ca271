import { MemError, sha256Hex } from '@mem/core';
import type { IdempotencyRecord } from '@mem/engine';
import type { RegistryContext } from './context.js';
import { IDEMPOTENCY_TTL_MS, keyConflict, requestFingerprint } from './idempotency.js';
import type { AnyOperation, RecordedBatch } from './operation.js';
import { underItemWrite } from './ops/items/item-write.js';

/** What identifies one keyed call of a recorded operation. */
export interface KeyedCall {
  /** The credential the key belongs to (a token id, or the local or anonymous caller). */
  scope: string;
  key: string;
  /** The operation and its validated input: what the key was used for. */
  request: { op: string; input: unknown };
  /** The project the operation writes to: where its record is. */
  project: string;
}

/**
 * Runs a keyed write whose outcome is recorded in the log (issue 13 §2). A record of the key
 * that has not expired (24 h after its event's ts, against the clock) answers: the same request
 * gets the operation's answer stated again from the batch it appended, and writes nothing; a
 * different request is CONFLICT. Without one, the operation runs and its batch carries the
 * record. The lookup is one row of the SQLite projection, caught up to the project's head first
 * inside the project's item-write section, so a write another process made (or one before a
 * restart, or one racing this one) is seen.
 */
export async function runRecorded(
  ctx: RegistryContext,
  op: AnyOperation & { replay: NonNullable<AnyOperation['replay']> },
  call: KeyedCall,
  run: (record: IdempotencyRecord) => Promise<unknown>,
): Promise<unknown> {
  const record: IdempotencyRecord = {
    key_sha256: sha256Hex(`${call.scope}\u0000${call.key}`),
    fingerprint: requestFingerprint(call.request),
    op: op.name,
  };
  // The lookup and the write are one item-write section of the project (engine locks.ts): two
  // processes racing one new key would otherwise both find no record and both append; the
  // second now finds the first's record in the store the section caught up, and is answered
  // from its batch.
  return underItemWrite(ctx, call.project, async (items): Promise<unknown> => {
    const row = items.idempotencyKey(record.key_sha256);
    const live = row !== undefined && Date.parse(row.ts) > ctx.now().getTime() - IDEMPOTENCY_TTL_MS;
    if (!live) return run(record);
    if (row.fingerprint !== record.fingerprint) throw keyConflict();
    return op.replay(call.request.input, await recordedBatch(ctx, row));
  });
}

/** The write's events, first_seq..last_seq, read from the log (earlier segments skipped unread). */
async function recordedBatch(
  ctx: RegistryContext,
  row: { project: string; first_seq: number; last_seq: number },
): Promise<RecordedBatch> {
  const events: RecordedBatch['events'] = [];
  for await (const { event } of ctx.engine.read(row.project, { fromSeq: row.first_seq })) {
    if (event.seq > row.last_seq) break;
    events.push(event);
  }
  if (events.length !== row.last_seq - row.first_seq + 1)
    throw new MemError(
      'PROJECTION_FAILED',
      `the idempotency record of ${row.project} names seq ${row.first_seq}..${row.last_seq}, which the log does not hold`,
      { project: row.project, first_seq: row.first_seq, last_seq: row.last_seq },
    );
  return { project: row.project, first_seq: row.first_seq, last_seq: row.last_seq, events };
}
