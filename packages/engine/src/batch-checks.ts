import { MemError, genesisHash } from '@mem/core';
import type { ProjectedEvent, ProjectionPosition } from './projector.js';

/*
 * The checks every projector runs before applying a batch, in one place: a batch must continue
 * the chain exactly where the projection stopped, so applying an event twice is a refusal,
 * never a double count.
 */

/**
 * Refuses a batch that is not one contiguous stretch of `project`'s chain: every event of
 * that project, seq +1 each, each `prev` the hash before it. Pure; throws PROJECTION_FAILED
 * (or CHAIN_BROKEN for a `prev` that does not match inside the batch).
 */
export function checkBatch(project: string, events: readonly ProjectedEvent[]): void {
  events.forEach(({ event }, i) => {
    if (event.project !== project) {
      throw new MemError('PROJECTION_FAILED', `event seq ${event.seq} belongs to project ${event.project}, not ${project}`, {
        project,
        seq: event.seq,
        eventProject: event.project,
      });
    }
    const before = i > 0 ? events[i - 1] : undefined;
    if (!before) return;
    if (event.seq !== before.event.seq + 1) {
      throw new MemError('PROJECTION_FAILED', `${project}: events are not contiguous: seq ${event.seq} follows seq ${before.event.seq}`, {
        project,
        seq: event.seq,
        expectedSeq: before.event.seq + 1,
      });
    }
    if (event.prev !== before.hash) {
      throw new MemError('CHAIN_BROKEN', `${project}: seq ${event.seq} does not chain from seq ${before.event.seq} (prev ${event.prev}, expected ${before.hash})`, {
        project,
        seq: event.seq,
        expected: before.hash,
        actual: event.prev,
      });
    }
  });
}

/**
 * Refuses a batch that does not start right after `position` (null: nothing applied, so the
 * batch must start at seq 1 chained from genesis). This is what makes applying twice a
 * refusal instead of a double count.
 */
export function checkStart(project: string, position: ProjectionPosition | null, first: ProjectedEvent, projection = 'projection'): void {
  const seq = (position?.seq ?? 0) + 1;
  const head = position?.head ?? genesisHash(project);
  if (first.event.seq !== seq) {
    throw new MemError('PROJECTION_FAILED', `${project}: the ${projection} has applied seq ${seq - 1}, so the next event must be seq ${seq}, not ${first.event.seq}`, {
      project,
      expectedSeq: seq,
      seq: first.event.seq,
    });
  }
  if (first.event.prev !== head) {
    throw new MemError('PROJECTION_FAILED', `${project}: seq ${first.event.seq} does not chain from the applied head ${head}: the log is not the one the ${projection} was built from`, {
      project,
      seq: first.event.seq,
      expected: head,
      actual: first.event.prev,
    });
  }
}
