import { isEventType } from '@mem/core';
import { checkBatch, checkStart, type ProjectedEvent, type ProjectionPosition } from '@mem/engine';
import { unknownEventType } from './fold.js';

/**
 * Checks a whole batch before any of it is applied: every event of a known type, starting right
 * after the position and continuing the chain (the engine's shared checks). A batch that does
 * not continue the chain (applied twice, a gap, another log) changes nothing.
 */
export function assertBatchContinues(project: string, position: ProjectionPosition | null, events: readonly ProjectedEvent[]): void {
  for (const { event } of events) if (!isEventType((event as { type?: unknown }).type)) throw unknownEventType(event);
  if (events.length === 0) return;
  checkStart(project, position, events[0]!, 'vault');
  checkBatch(project, events);
}
