import type { ItemStore } from '@mem/projector-sqlite';
import { canReach, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import type { StoreView } from '../../stores.js';
import { visibleProjects } from '../reach.js';

/** The projects a read covers and the item store it reads them from. */
export interface ReachableItems {
  /** Sorted; only projects that have a log. */
  projects: string[];
  items: ItemStore;
  /** The stores the read runs on (control tables included), for a read that needs more. */
  view: StoreView;
}

/**
 * Runs an item read (find, read, open, orient) as a settled read (stores.ts) over the projects
 * the caller reaches: the named ones, each checked, else every one visible. Trigger: another
 * process catches up, rebuilds or purges while the read is between two statements (a find
 * awaits its matches' cited sources, then reads its page and the page's matched terms). Why: a read of
 * several statements would otherwise answer from two states, the page of one and its terms of
 * the other. Outcome: a read the projection generation moved under is taken again under the
 * projection lock, caught up, so the answer is of one state; `read` must not write or catch up.
 */
export function settledItems<T>(
  ctx: RegistryContext,
  caller: Caller,
  named: readonly string[] | undefined,
  read: (reach: ReachableItems) => T | Promise<T>,
): Promise<T> {
  const projects = named ? [...new Set(named)].filter((p) => canReach(caller, p)).sort() : [];
  return ctx.stores.settledRead(projects, async (view) =>
    read(await reachableIn(ctx, caller, named, view)),
  );
}

async function reachableIn(
  ctx: RegistryContext,
  caller: Caller,
  named: readonly string[] | undefined,
  view: StoreView,
): Promise<ReachableItems> {
  // Trigger: a named project the caller does not reach. Why: answering "none there" would tell an
  // outsider whether it holds items. Outcome: it counts as empty, as an unknown one does.
  const wanted = named
    ? [...new Set(named)].filter((p) => canReach(caller, p)).sort()
    : await visibleProjects(ctx, caller, view);
  const known = new Set(await ctx.engine.projects());
  return { projects: wanted.filter((p) => known.has(p)), items: view.items, view };
}

/**
 * The item store as of the heads of `projects`' logs (caught up first where it is behind one),
 * for an item write's checks: they run under the project's item-write lock, which a settled
 * read must not take.
 */
export async function caughtUpItems(
  ctx: RegistryContext,
  projects: readonly string[],
): Promise<ItemStore> {
  const view = await ctx.stores.fresh();
  if (!(await behind(ctx, view.items, projects))) return view.items;
  await ctx.engine.catchUp(projects, { writePath: true });
  return (await ctx.stores.fresh()).items;
}

async function behind(
  ctx: RegistryContext,
  items: ItemStore,
  projects: readonly string[],
): Promise<boolean> {
  const at = new Map(items.positions().map((p) => [p.project, p.seq]));
  for (const project of projects)
    if ((await ctx.engine.head(project)).seq > (at.get(project) ?? 0)) return true;
  return false;
}
