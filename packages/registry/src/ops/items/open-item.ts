import { z } from 'zod';
import { MemError, isResolved, itemIdField, itemStatusField } from '@mem/core';
import type { Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import { reachableLedgers } from './find.js';
import { childrenOf, type ItemLedger, type ItemState } from './ledger.js';
import { byRecency, lastActivity, oneLine, refShape, slimOf, slimShape } from './slim.js';
import { itemView, viewOf } from './view.js';

/** Children one `open` returns unless asked for fewer; a wide thread pages past it. */
export const DEFAULT_OPEN_CHILDREN = 50;
export const MAX_OPEN_CHILDREN = 200;

export const openItemInput = z.strictObject({
  id: itemIdField,
  project: projectInput.optional(),
  /** Children with this status instead of the open ones (an explicit override, seed 000 §5.3). */
  status: itemStatusField.optional(),
  limit: z.int().min(1).max(MAX_OPEN_CHILDREN).optional(),
});

export const openItemOut = z.object({
  item: itemView,
  children: z.object({
    items: z.array(slimShape),
    /** Every child the filter keeps, however many are returned. */
    total: z.number(),
    omitted: z.number(),
  }),
  /** Anchored here, binding: listed before the facts. */
  rules: z.array(slimShape),
  facts: z.array(slimShape),
  links: z.array(refShape),
});

function anchoredTo(ledger: ItemLedger, id: string, type: 'rule' | 'fact'): ItemState[] {
  return [...ledger.items.values()]
    .filter((i) => !i.deleted && i.type === type && i.anchors.includes(id))
    .sort((a, b) => a.created_seq - b.created_seq);
}

/**
 * `open` (T1): an item in full, its children (open ones unless a status is named) most recently
 * active first with an exact overflow count, the rules then facts anchored to it, links as refs.
 */
export async function openItem(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof openItemInput>,
) {
  const ledgers = await reachableLedgers(
    ctx,
    caller,
    input.project !== undefined ? [input.project] : undefined,
  );
  const ledger = ledgers.find((l) => l.items.get(input.id)?.deleted === false);
  const item = ledger?.items.get(input.id);
  if (!ledger || !item)
    throw new MemError(
      'NOT_FOUND',
      `id: no live item ${input.id} in a project this caller reaches`,
      {
        field: 'id',
        id: input.id,
      },
    );
  const keep = (c: ItemState) =>
    input.status !== undefined ? c.status === input.status : !isResolved(c.status);
  const children = childrenOf(ledger, item.id)
    .filter(keep)
    .map((c) => ({ slim: slimOf(ledger, c), activity: lastActivity(ledger, c) }))
    .sort((a, b) => byRecency(a.activity, b.activity) || a.slim.id.localeCompare(b.slim.id));
  const shown = children.slice(0, input.limit ?? DEFAULT_OPEN_CHILDREN);
  return {
    item: viewOf(item),
    children: {
      items: shown.map((c) => c.slim),
      total: children.length,
      omitted: children.length - shown.length,
    },
    rules: anchoredTo(ledger, item.id, 'rule').map((k) => slimOf(ledger, k)),
    facts: anchoredTo(ledger, item.id, 'fact').map((k) => slimOf(ledger, k)),
    links: item.links
      .map((id) => ledger.items.get(id))
      .filter((l): l is ItemState => l !== undefined && !l.deleted)
      .map((l) => ({ id: l.id, summary: oneLine(l.summary) })),
  };
}
