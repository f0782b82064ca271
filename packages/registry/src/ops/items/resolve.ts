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
import { writtenOut, type WrittenOut } from './add-items.js';

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
): Promise<ResolvedOut> {
  requireReach(caller, input.project);
  return underItemWrite(ctx, input.project, (items) => resolveChecked(ctx, caller, input, items));
}

async function resolveChecked(
  ctx: RegistryContext,
  caller: Caller,
  input: ResolveInput,
  items: ItemStore,
): Promise<ResolvedOut> {
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
  const warnings = openBlockers(items, input.project, payloads, ledger);
  const result = await ctx.engine.append(input.project, payloads, writerOf(caller), ITEM_APPEND);
  return {
    project: input.project,
    ids: payloads.map((p) => (p as { item: string }).item),
    seq: result.last_seq,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

type ResolvedOut = WrittenOut & { warnings?: OpenBlockerWarning[] };

/** A work item resolved done while an item it is blocked by is still open. */
export const openBlockerWarning = z.object({
  code: z.literal('OPEN_BLOCKER'),
  item: z.string(),
  blocker: z.string(),
  blocker_status: z.string().nullable(),
  message: z.string(),
});
export type OpenBlockerWarning = z.infer<typeof openBlockerWarning>;

/** What resolve_items answers: the written ids, and a warning per open blocker of an item it marked done. */
export const resolvedOut = writtenOut.extend({
  warnings: z.array(openBlockerWarning).optional(),
});

/**
 * The open blockers of the items `payloads` mark done, in item then blocker order. Trigger: a
 * task resolved done while its blocked_by item is open (neither resolved, deleted, nor resolved
 * in this call). Why: seed 000 §4.5 makes blocked a relation so the dependency stays visible;
 * finishing work past its blocker may be true (the blocker was worked around), so the write goes
 * through — refusing would need an override on three surfaces for a claim the caller can make.
 * Outcome: the answer names each blocker and what to do, on CLI, HTTP and MCP alike. `dropped`
 * is abandonment: a blocker does not make it doubtful, so it warns of nothing.
 */
function openBlockers(
  items: ItemStore,
  project: string,
  payloads: readonly Payload[],
  ledger: ItemLedger,
): OpenBlockerWarning[] {
  const doneNow = new Set<string>();
  const resolvedNow = new Set<string>();
  for (const p of payloads)
    if (p.type === 'item_resolved') {
      resolvedNow.add(p.item);
      if (p.status === 'done') doneNow.add(p.item);
    }
  const blockedBy = new Map(
    [...doneNow].map((id) => [id, [...(ledger.items.get(id)?.blocked_by ?? [])].sort()]),
  );
  const wanted = [...new Set([...blockedBy.values()].flat())].filter((id) => !resolvedNow.has(id));
  if (wanted.length === 0) return [];
  const blockers = new Map(items.itemsById([project], wanted).map((row) => [row.id, row]));
  const warnings: OpenBlockerWarning[] = [];
  for (const id of [...doneNow].sort())
    for (const blocker of blockedBy.get(id)!) {
      const row = blockers.get(blocker);
      if (row === undefined || row.deleted || isResolved(row.status)) continue;
      warnings.push({
        code: 'OPEN_BLOCKER',
        item: id,
        blocker,
        blocker_status: row.status,
        message: `${id} is done while blocked by ${blocker} (${row.type}, ${row.status ?? 'no status'}: ${row.summary}); resolve ${blocker}, or remove the relation (mem items relate ${id} --relation blocked_by --target ${blocker} --remove --reason TEXT)`,
      });
    }
  return warnings;
}
