import { itemWriteLock } from '@mem/engine';
import type { ItemStore } from '@mem/projector-sqlite';
import type { RegistryContext } from '../../context.js';
import { caughtUpItems } from './reachable-store.js';

/**
 * Runs an item write's check-then-append as one section: under the project's item-write lock
 * (cross-process, engine.exclusive), the item store is caught up to the log head, `write` reads
 * its checks from it and appends (catching up before it returns), and only then is the lock
 * released. Trigger: two writers (two requests, a CLI beside a server) check the same item at
 * once. Why: each would pass a check the other's append breaks (a second parent, a cycle, an
 * anchor left sole, an overfull always-loaded set). Outcome: the second writer's store holds the
 * first one's events before it checks. The store is read, never the log: a check costs its rows,
 * and catching up costs a stat of the head when the store is current.
 */
export function underItemWrite<T>(
  ctx: RegistryContext,
  project: string,
  write: (items: ItemStore) => Promise<T>,
): Promise<T> {
  return ctx.engine.exclusive(itemWriteLock(project), async () =>
    write(await caughtUpItems(ctx, [project])),
  );
}
