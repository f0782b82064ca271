import type { ItemStore } from '@mem/projector-sqlite';
import { canReach, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { visibleProjects } from '../reach.js';

/** The projects a read covers and the item store, caught up with each of their logs. */
export interface ReachableItems {
  /** Sorted; only projects that have a log. */
  projects: string[];
  items: ItemStore;
}

/**
 * The projects the caller reaches (the named ones, each checked), and the item store as of
 * their logs' heads. Trigger: another process (a CLI beside a server) appended to one of them.
 * Why: a read after a write must see it, and folding the log per read is what item reads cost
 * before. Outcome: a projection behind a head is caught up first; a current one costs a stat
 * of each log's head.
 */
export async function reachableItems(
  ctx: RegistryContext,
  caller: Caller,
  named: readonly string[] | undefined,
): Promise<ReachableItems> {
  const visible = await visibleProjects(ctx, caller, await ctx.stores.fresh());
  // Trigger: a named project the caller does not reach. Why: answering "none there" would tell an
  // outsider whether it holds items. Outcome: it counts as empty, as an unknown one does.
  const wanted = named ? [...new Set(named)].filter((p) => canReach(caller, p)).sort() : visible;
  const known = new Set(await ctx.engine.projects());
  const projects = wanted.filter((p) => known.has(p));
  return { projects, items: await caughtUpItems(ctx, projects) };
}

/** The item store as of the heads of `projects`' logs (caught up first where it is behind one). */
export async function caughtUpItems(
  ctx: RegistryContext,
  projects: readonly string[],
): Promise<ItemStore> {
  const view = await ctx.stores.fresh();
  if (!(await behind(ctx, view.items, projects))) return view.items;
  await ctx.engine.catchUp(projects);
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
