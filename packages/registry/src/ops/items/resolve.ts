import { z } from 'zod';
import {
  MemError,
  isKnowledge,
  isResolved,
  itemIdField,
  itemReasonField,
  requireTransition,
  resolvedStatusField,
  type Payload,
  type ResolvedStatus,
} from '@mem/core';
import { requireReach, writerOf, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import type { ItemStore } from '@mem/projector-sqlite';
import { ledgerOf, stateOf, type ItemLedger } from './ledger.js';
import { ITEM_APPEND, underItemWrite } from './item-write.js';
import { requireItem } from './view.js';
import type { WrittenOut } from './add-items.js';

export const MAX_RESOLVE_IDS = 100;

export const resolveItemsInput = z.strictObject({
  project: projectInput,
  ids: z.array(itemIdField).min(1, 'expected at least one id').max(MAX_RESOLVE_IDS),
  status: resolvedStatusField,
  /** What becomes of every open descendant not named in `dispositions`. */
  descendants: resolvedStatusField.optional(),
  /** Per open descendant: done or dropped. */
  dispositions: z.record(itemIdField, resolvedStatusField).optional(),
  reason: itemReasonField.optional(),
});
type ResolveInput = z.infer<typeof resolveItemsInput>;

/**
 * The resolutions a call asks for, container last: each open descendant of a target with its
 * disposition, then the target. Trigger: a container with open descendants and no disposition
 * for some. Why: cascading `done` would write a false claim into history (seed 000 §4.6).
 * Outcome: CONFLICT listing every open descendant lacking one, so the caller can answer it.
 */
function plannedResolutions(
  ledger: ItemLedger,
  items: ItemStore,
  input: ResolveInput,
): Map<string, ResolvedStatus> {
  const plan = new Map<string, ResolvedStatus>();
  const missing: { id: string; type: string; status: string | null; summary: string }[] = [];
  input.ids.forEach((id, i) => {
    const item = requireItem(ledger, id, `ids[${i}]`, true);
    if (isKnowledge(item.type))
      throw new MemError(
        'INVALID_INPUT',
        `ids[${i}]: ${id} is a ${item.type}; knowledge has no status to resolve`,
        {
          field: `ids[${i}]`,
          id,
          type: item.type,
        },
      );
    for (const row of items.descendants(input.project, id)) {
      // The plan's writes read each planned item's status from the ledger.
      const child = stateOf(row);
      ledger.items.set(child.id, child);
      if (isResolved(child.status) || plan.has(child.id)) continue;
      const disposition =
        input.dispositions?.[child.id] ??
        (input.ids.includes(child.id) ? input.status : input.descendants);
      if (disposition === undefined)
        missing.push({
          id: child.id,
          type: child.type,
          status: child.status,
          summary: child.summary,
        });
      else plan.set(child.id, disposition);
    }
    plan.set(id, input.status);
  });
  if (missing.length > 0)
    throw new MemError(
      'CONFLICT',
      `${missing.length} open descendant${missing.length === 1 ? '' : 's'} need${missing.length === 1 ? 's' : ''} a disposition (done or dropped): ${missing.map((m) => m.id).join(', ')}`,
      { open_descendants: missing },
    );
  return plan;
}

/** Resolves items (and, with dispositions, their open descendants). Re-resolving writes nothing. */
export async function resolveItems(
  ctx: RegistryContext,
  caller: Caller,
  input: ResolveInput,
): Promise<WrittenOut> {
  requireReach(caller, input.project);
  return underItemWrite(ctx, input.project, (items) => resolveChecked(ctx, caller, input, items));
}

async function resolveChecked(
  ctx: RegistryContext,
  caller: Caller,
  input: ResolveInput,
  items: ItemStore,
): Promise<WrittenOut> {
  const ledger = ledgerOf(input.project, items.itemsById([input.project], input.ids));
  const payloads: Payload[] = [];
  for (const [id, status] of plannedResolutions(ledger, items, input)) {
    const item = ledger.items.get(id)!;
    if (item.status === status) continue;
    requireTransition(id, item.type, item.status, status);
    payloads.push({
      type: 'item_resolved',
      item: id,
      from: item.status!,
      status,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
    });
  }
  if (payloads.length === 0) return { project: input.project, ids: [], seq: null };
  const result = await ctx.engine.append(input.project, payloads, writerOf(caller), ITEM_APPEND);
  return {
    project: input.project,
    ids: payloads.map((p) => (p as { item: string }).item),
    seq: result.last_seq,
  };
}
