import type { ItemStore } from '@mem/projector-sqlite';
import { ledgerOf, type ItemLedger } from './ledger.js';

/**
 * The part of a project's items that add_items' checks read, from the SQLite projection (caught
 * up by the caller, under the item-write lock): the items the drafts name (parents, anchors)
 * and, when a draft is unanchored knowledge, the always-loaded rules and facts its budget
 * counts. Why not the fold: it reads the whole log per call, which is what bounded a 100-item
 * batch.
 */
export function draftLedger(
  items: ItemStore,
  project: string,
  ids: readonly string[],
  knowledge: boolean,
): ItemLedger {
  return ledgerOf(project, [
    ...items.itemsById([project], [...new Set(ids)]),
    ...(knowledge
      ? [...items.unanchored([project], 'rule'), ...items.unanchored([project], 'fact')]
      : []),
  ]);
}
