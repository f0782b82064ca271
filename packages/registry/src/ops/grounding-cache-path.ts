import { join } from 'node:path';
import type { RegistryContext } from '../context.js';

/**
 * Where a project's cited sources' stamps and groundings are kept (droppable: a missing or
 * unreadable cache is rebuilt by reading). Query freshness and the review scan share it, so
 * both judge a line by the same reading of its source.
 */
export function groundingCachePath(ctx: RegistryContext, project: string): string {
  return join(ctx.engine.paths.stateDir, 'cache', 'grounding', `${project}.json`);
}
