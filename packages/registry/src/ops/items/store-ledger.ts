import type { ItemRow } from '@mem/projector-sqlite';
import type { RegistryContext } from '../../context.js';
import type { ItemLedger, ItemState } from './ledger.js';
import { caughtUpItems } from './reachable-store.js';

/**
 * The part of a project's ledger that add_items' checks read, from the SQLite projection: the
 * items the drafts name (parents, anchors) and, when a draft is unanchored knowledge, the
 * always-loaded rules and facts its budget counts. Why not the fold: it reads the whole log per
 * call, which is what bounded a 100-item batch. Mutations are not projected, so the states
 * carry none (no add_items check reads them).
 */
export async function draftLedger(
  ctx: RegistryContext,
  project: string,
  ids: readonly string[],
  knowledge: boolean,
): Promise<ItemLedger> {
  const items = await caughtUpItems(ctx, [project]);
  const rows = [
    ...items.itemsById([project], [...new Set(ids)]),
    ...(knowledge
      ? [...items.unanchored([project], 'rule'), ...items.unanchored([project], 'fact')]
      : []),
  ];
  return { project, items: new Map(rows.map((row) => [row.id, stateOf(row)])) };
}

function stateOf(row: ItemRow): ItemState {
  const { node_id: _node, ...state } = row;
  return { ...state, mutations: [] };
}
