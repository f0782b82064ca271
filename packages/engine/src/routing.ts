import type { EventType } from '@mem/core';
import { checkBatch } from './batch-checks.js';
import type { ProjectedEvent, ProjectionBatch, Projector } from './projector.js';

/**
 * Cuts a checked, non-empty stretch down to the event types in `handles`, keeping the positions
 * it spans: a projector records the stretch's end even when it handled none of it.
 */
export function routeBatch(
  handles: readonly EventType[],
  stretch: readonly ProjectedEvent[],
): ProjectionBatch {
  const first = stretch[0]!;
  const last = stretch[stretch.length - 1]!;
  const wanted = new Set<EventType>(handles);
  return {
    events: stretch.filter(({ event }) => wanted.has(event.type)),
    after: first.event.seq === 1 ? null : { seq: first.event.seq - 1, head: first.event.prev },
    through: { seq: last.event.seq, head: last.hash },
  };
}

/**
 * Hands one stretch of `project`'s chain to one projector as the engine's catch-up does:
 * checked, then routed by its `handles`. For callers that drive a projector without an engine
 * (its own tests); an empty stretch applies nothing.
 */
export async function projectStretch<Handle>(
  projector: Projector<Handle>,
  handle: Handle,
  project: string,
  stretch: readonly ProjectedEvent[],
): Promise<void> {
  if (stretch.length === 0) return;
  checkBatch(project, stretch);
  await projector.project(handle, project, routeBatch(projector.handles, stretch));
}
