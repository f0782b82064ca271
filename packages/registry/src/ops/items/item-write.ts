import { AsyncLocalStorage } from 'node:async_hooks';
import { itemWriteLock } from '@mem/engine';
import type { ItemStore } from '@mem/projector-sqlite';
import type { RegistryContext } from '../../context.js';
import { caughtUpItems } from './reachable-store.js';

/**
 * How an item write appends (issue 13 §6): it answers once SQLite (which the next write's checks
 * read) and the vault hold it; pgvector, a deferred projection, is caught up by the next vector
 * read (query, context) before that answers, or after the answer in `mem serve`.
 */
export const ITEM_APPEND = { catchUp: 'write-path' } as const;

/** The projects whose item-write section the current call chain is inside. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * Runs an item write's check-then-append as one section: under the project's item-write lock
 * (cross-process, engine.exclusive), the item store is caught up to the log head, `write` reads
 * its checks from it and appends (catching up before it returns), and only then is the lock
 * released. Trigger: two writers (two requests, a CLI beside a server) check the same item at
 * once. Why: each would pass a check the other's append breaks (a second parent, a cycle, an
 * anchor left sole, an overfull always-loaded set). Outcome: the second writer's store holds the
 * first one's events before it checks. The store is read, never the log: a check costs its rows,
 * and catching up costs a stat of the head when the store is current.
 *
 * Re-entered by the same call chain (a keyed write's Idempotency-Key lookup holds the section
 * around the operation it runs, recorded-idempotency.ts), it runs `write` in the section
 * already held: the lock is not reentrant, and taking it again would wait for itself.
 */
export function underItemWrite<T>(
  ctx: RegistryContext,
  project: string,
  write: (items: ItemStore) => Promise<T>,
): Promise<T> {
  const outer = held.getStore();
  if (outer?.has(project)) return caughtUpItems(ctx, [project]).then(write);
  return ctx.engine.exclusive(itemWriteLock(project), () =>
    held.run(new Set([...(outer ?? []), project]), async () =>
      write(await caughtUpItems(ctx, [project])),
    ),
  );
}
