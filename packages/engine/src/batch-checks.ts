import { MemError, hasPurgeMarker, genesisHash, isEventType } from '@mem/core';
import type { ProjectedEvent, ProjectionPosition } from './projector.js';

/*
 * The checks every batch passes before any projector applies it, in one place: a batch must be
 * one known, contiguous stretch of the chain, and continue exactly where the projection stopped,
 * so applying an event twice is a refusal, never a double count.
 */

/**
 * Refuses a batch that is not one contiguous stretch of `project`'s chain: every event of a
 * known type (UNKNOWN_EVENT_TYPE: routing by `handles` would otherwise drop it silently) and of
 * that project, seq +1 each, each `prev` the hash before it, seq 1 chained from genesis. Pure;
 * throws PROJECTION_FAILED (or CHAIN_BROKEN for a `prev` that does not match inside the batch).
 */
export function checkBatch(project: string, events: readonly ProjectedEvent[]): void {
  for (const { event } of events) {
    const { type, seq } = event as { type?: unknown; seq?: unknown };
    if (!isEventType(type)) {
      throw new MemError(
        'UNKNOWN_EVENT_TYPE',
        `${project} seq ${String(seq)}: unknown event type ${JSON.stringify(type)}: no projector can apply it`,
        { project, seq, type },
      );
    }
  }
  events.forEach(({ event }, i) => {
    if (event.project !== project) {
      throw new MemError(
        'PROJECTION_FAILED',
        `event seq ${event.seq} belongs to project ${event.project}, not ${project}`,
        {
          project,
          seq: event.seq,
          eventProject: event.project,
        },
      );
    }
    const before = i > 0 ? events[i - 1] : undefined;
    if (!before) {
      if (event.seq === 1 && event.prev !== genesisHash(project)) {
        throw new MemError(
          'CHAIN_BROKEN',
          `${project}: seq 1 does not chain from the genesis hash (prev ${event.prev})`,
          { project, seq: 1, expected: genesisHash(project), actual: event.prev },
        );
      }
      return;
    }
    if (event.seq !== before.event.seq + 1) {
      throw new MemError(
        'PROJECTION_FAILED',
        `${project}: events are not contiguous: seq ${event.seq} follows seq ${before.event.seq}`,
        {
          project,
          seq: event.seq,
          expectedSeq: before.event.seq + 1,
        },
      );
    }
    // A line a purge rewrote keeps its successor's old prev; the log walk that read the batch
    // accepts that only where a `purged` event names it (packages/log chain-walk.ts).
    if (event.prev !== before.hash && !hasPurgeMarker(JSON.stringify(before.event))) {
      throw new MemError(
        'CHAIN_BROKEN',
        `${project}: seq ${event.seq} does not chain from seq ${before.event.seq} (prev ${event.prev}, expected ${before.hash})`,
        {
          project,
          seq: event.seq,
          expected: before.hash,
          actual: event.prev,
        },
      );
    }
  });
}

/**
 * Refuses a batch that does not start where the projection stands: `stored` is its applied
 * position, `after` the one the batch continues (null: seq 1). This is what makes applying
 * twice a refusal instead of a double count. Projectors call it with the position read inside
 * their own write transaction, so a writer in another process cannot slip in between.
 */
export function checkStart(
  project: string,
  stored: ProjectionPosition | null,
  after: ProjectionPosition | null,
  projection = 'projection',
): void {
  const seq = stored?.seq ?? 0;
  const head = stored?.head ?? genesisHash(project);
  const wantSeq = after?.seq ?? 0;
  const wantHead = after?.head ?? genesisHash(project);
  if (wantSeq !== seq) {
    throw new MemError(
      'PROJECTION_FAILED',
      `${project}: the ${projection} has applied seq ${seq}, so the next event must be seq ${seq + 1}, not ${wantSeq + 1}`,
      {
        project,
        expectedSeq: seq + 1,
        seq: wantSeq + 1,
      },
    );
  }
  if (wantHead !== head) {
    throw new MemError(
      'PROJECTION_FAILED',
      `${project}: seq ${wantSeq + 1} does not chain from the applied head ${head}: the log is not the one the ${projection} was built from`,
      {
        project,
        seq: wantSeq + 1,
        expected: head,
        actual: wantHead,
      },
    );
  }
}
