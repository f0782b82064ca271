import { z } from 'zod';
import {
  MemError,
  itemDraftIssues,
  itemFieldsShape,
  itemId,
  itemReasonField,
  itemTypeField,
  isKnowledge,
  type FromLine,
  type Payload,
} from '@mem/core';
import { requireCapability, requireReach, writerOf, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import type { RecordedBatch, RunEffects } from '../../operation.js';
import { projectInput } from '../schemas.js';
import type { ItemLedger } from './ledger.js';
import { draftLedger } from './store-ledger.js';
import { underItemWrite } from './item-write.js';
import { requireItem } from './view.js';
import { requireKnowledgeRoom } from './budget.js';
import { orientBudget } from './orient.js';

/** The most items one add_items call writes: one batch, one append, one catch-up. */
export const MAX_ADD_ITEMS = 100;

/** A new item: its type and the fields that apply to it (the rest refused, naming field and type). */
export const itemDraft = z
  .strictObject({ type: itemTypeField, ...itemFieldsShape })
  .superRefine((value, ctx) => {
    for (const issue of itemDraftIssues(value.type, value))
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
export type ItemDraft = z.infer<typeof itemDraft>;

export const addItemsInput = z.strictObject({
  project: projectInput,
  items: z
    .array(itemDraft)
    .min(1, 'expected at least one item')
    .max(MAX_ADD_ITEMS, `expected at most ${MAX_ADD_ITEMS} items in one batch`),
  reason: itemReasonField.optional(),
});

export const writtenOut = z.object({
  project: z.string(),
  ids: z.array(z.string()),
  /** The seq of the last event written; null when nothing needed writing. */
  seq: z.number().nullable(),
});
export type WrittenOut = z.infer<typeof writtenOut>;

/**
 * The checks the log must answer, per item: a parent that is a live work item of the project,
 * anchors on live work items, rules only with may_write_rules. Every failure names
 * `items[i].field`; nothing is appended unless all pass, so a batch is all or nothing.
 */
function checkDraft(ledger: ItemLedger, caller: Caller, draft: ItemDraft, index: number): void {
  if (draft.type === 'rule') requireCapability(caller, 'may_write_rules');
  const targets = [
    ...(draft.parent !== undefined ? [{ field: `items[${index}].parent`, id: draft.parent }] : []),
    ...(draft.anchors ?? []).map((id, i) => ({ field: `items[${index}].anchors[${i}]`, id })),
  ];
  for (const { field, id } of targets) {
    const target = requireItem(ledger, id, field, true);
    if (isKnowledge(target.type))
      throw new MemError(
        'INVALID_INPUT',
        `${field}: ${id} is a ${target.type}; expected a work item (task, thread, reminder)`,
        {
          field,
          id,
          type: target.type,
        },
      );
  }
}

/** What an add answers, from the batch it appended: the new ids in input order and its last seq. */
export function addedItems(batch: RecordedBatch): WrittenOut {
  const ids = batch.events
    .filter((e) => e.type === 'item_added')
    .map((e) => itemId(batch.project, e.seq));
  return { project: batch.project, ids, seq: batch.last_seq };
}

/**
 * Appends the drafts as one atomic batch and returns their ids, in input order. With an
 * Idempotency-Key's record (`effects.idempotency`), the batch carries it: the answer is then
 * addedItems of the batch, whoever asks again.
 */
export async function addItems(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  // from_line is set by a promotion (promote-line.ts), never taken from a caller's draft.
  drafts: readonly (ItemDraft & { from_line?: FromLine })[],
  reason?: string,
  effects: RunEffects = {},
): Promise<WrittenOut> {
  requireReach(caller, project);
  // The checks and the append are one section under the project's item-write lock: a delete of
  // a parent or another add's budget check cannot run between them.
  return underItemWrite(ctx, project, async (items) => {
    const ledger = draftLedger(
      items,
      project,
      drafts.flatMap((d) => [...(d.parent !== undefined ? [d.parent] : []), ...(d.anchors ?? [])]),
      drafts.some((d) => isKnowledge(d.type) && (d.anchors ?? []).length === 0),
    );
    drafts.forEach((draft, i) => checkDraft(ledger, caller, draft, i));
    requireKnowledgeRoom(
      ledger,
      orientBudget(ctx),
      drafts
        .filter((d) => isKnowledge(d.type) && (d.anchors ?? []).length === 0)
        .map((d) => ({ type: d.type, summary: d.summary })),
    );
    const payloads: Payload[] = drafts.map(({ type, ...fields }) => ({
      type: 'item_added',
      item_type: type,
      ...fields,
      ...(reason !== undefined ? { reason } : {}),
    }));
    const result = await ctx.engine.append(
      project,
      payloads,
      writerOf(caller),
      effects.idempotency ? { idempotency: effects.idempotency } : {},
    );
    return addedItems(result);
  });
}
