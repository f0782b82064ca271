import { SYSTEM_PROJECT } from '@mem/core';
import type { Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import type { StoreView } from '../stores.js';

/**
 * The projects this caller may see, sorted: a token's reach; for the local root of trust,
 * every registered project and every project with a log. `_system` is never one of them.
 */
export async function visibleProjects(
  ctx: RegistryContext,
  caller: Caller,
  view: StoreView,
): Promise<string[]> {
  if (caller.reach !== 'all') return [...caller.reach].filter((p) => p !== SYSTEM_PROJECT).sort();
  const names = new Set<string>(view.control.registeredProjects().map((p) => p.name));
  for (const project of await ctx.engine.projects()) names.add(project);
  names.delete(SYSTEM_PROJECT);
  return [...names].sort();
}
