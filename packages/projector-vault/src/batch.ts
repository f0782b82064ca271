import { MemError, genesisHash, isEventType } from '@mem/core';
import type { ProjectedEvent, ProjectionPosition } from '@mem/engine';
import { unknownEventType } from './fold.js';

function refuse(project: string, message: string, details: Record<string, unknown>): MemError {
  return new MemError('PROJECTION_FAILED', `vault projector: ${project}: ${message}`, { project, ...details });
}

/**
 * Checks a whole batch before any of it is applied: every event of `project`, of a known type,
 * seqs contiguous from the position, each `prev` the hash before it. A batch that does not
 * continue the chain (applied twice, a gap, another log) changes nothing.
 */
export function assertBatchContinues(project: string, position: ProjectionPosition | null, events: readonly ProjectedEvent[]): void {
  let seq = position?.seq ?? 0;
  let head = position?.head ?? genesisHash(project);
  for (const { event, hash } of events) {
    if (!isEventType((event as { type?: unknown }).type)) throw unknownEventType(event);
    if (event.project !== project) {
      throw refuse(project, `seq ${event.seq} belongs to project ${event.project}`, { seq: event.seq, actual_project: event.project });
    }
    if (event.seq !== seq + 1) {
      throw refuse(project, `expected seq ${seq + 1}, got ${event.seq} (already applied, or a gap)`, { expected_seq: seq + 1, seq: event.seq });
    }
    if (event.prev !== head) {
      throw refuse(project, `seq ${event.seq}: prev ${event.prev} does not continue the chain at ${head}`, { seq: event.seq, expected_prev: head, prev: event.prev });
    }
    seq = event.seq;
    head = hash;
  }
}
