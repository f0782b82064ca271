import type { RegistryContext } from '../../context.js';
import { ledgerOf, type ItemLedger } from './ledger.js';
import { caughtUpItems } from './reachable-store.js';

/**
 * The part of a project's items that add_items' checks read, from the SQLite projection: the
 * items the drafts name (parents, anchors) and, when a draft is unanchored knowledge, the
 * always-loaded rules and facts its budget counts. Why not the fold: it reads the whole log per
 * call, which is what bounded a 100-item batch.
 */
export async function draftLedger(
  ctx: RegistryContext,
  project: string,
  ids: readonly string[],
  knowledge: boolean,
): Promise<ItemLedger> {
  const items = await caughtUpItems(ctx, [project]);
  return ledgerOf(project, [
    ...items.itemsById([project], [...new Set(ids)]),
    ...(knowledge
      ? [...items.unanchored([project], 'rule'), ...items.unanchored([project], 'fact')]
      : []),
  ]);
}
