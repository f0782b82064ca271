import { z } from 'zod';
import {
  MemError,
  isMemError,
  itemDraftIssues,
  itemFieldsShape,
  isoTimeInputField,
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
import { ITEM_APPEND, underItemWrite } from './item-write.js';
import { requireItem } from './view.js';
import { requireKnowledgeRoom } from './budget.js';
import { orientBudget } from './orient.js';
import { citedDigest, citingScope } from './source-check.js';
import { batchRefsShape, checkBatchRefs, resolveBatchRefs, usesBatchRefs } from './batch-refs.js';

/** The most items one add_items call writes: one batch, one append, one catch-up. */
export const MAX_ADD_ITEMS = 100;

/**
 * A writer's instants: a timestamp or a date alone (its start, UTC), stored as the timestamp
 * (the event's fields, itemFieldsShape, take only the full form).
 */
const timeInputShape = {
  due: isoTimeInputField.optional(),
  remind_at: isoTimeInputField.optional(),
  valid_until: isoTimeInputField.optional(),
  review_after: isoTimeInputField.optional(),
};

/** A new item: its type and the fields that apply to it (the rest refused, naming field and type). */
export const itemDraft = z
  .strictObject({ type: itemTypeField, ...itemFieldsShape, ...timeInputShape })
  .superRefine((value, ctx) => {
    for (const issue of itemDraftIssues(value.type, value, { digestLater: true }))
      ctx.addIssue({
        code: 'custom',
        path: issue.path,
        message: issue.message,
        ...(issue.details ? { params: { ...issue.details } } : {}),
      });
  });
export type ItemDraft = z.infer<typeof itemDraft>;

/** An item of an add_items batch: a draft that may name, and be named by, other items of the batch (batch-refs.ts). */
export const batchDraft = z
  .strictObject({ type: itemTypeField, ...itemFieldsShape, ...timeInputShape, ...batchRefsShape })
  .superRefine((value, ctx) => {
    for (const issue of itemDraftIssues(value.type, value, { digestLater: true }))
      ctx.addIssue({
        code: 'custom',
        path: issue.path,
        message: issue.message,
        ...(issue.details ? { params: { ...issue.details } } : {}),
      });
  });
export type BatchDraft = z.infer<typeof batchDraft>;

/** How often a batch with in-batch refs is rebuilt when other writers keep moving the head. */
const REF_BATCH_ATTEMPTS = 5;

export const addItemsInput = z.strictObject({
  project: projectInput,
  items: z
    .array(batchDraft)
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
function checkDraft(ledger: ItemLedger, caller: Caller, draft: BatchDraft, index: number): void {
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

// from_line is set by a promotion (promote-line.ts), never taken from a caller's draft.
type AddDraft = BatchDraft & { from_line?: FromLine };

/**
 * Appends the drafts as one atomic batch and returns their ids, in input order. With an
 * Idempotency-Key's record (`effects.idempotency`), the batch carries it: the answer is then
 * addedItems of the batch, whoever asks again. A batch whose items name each other by ref is
 * built for the head it read; if another writer appended first, it is built again.
 */
export async function addItems(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  given: readonly AddDraft[],
  reason?: string,
  effects: RunEffects = {},
): Promise<WrittenOut> {
  requireReach(caller, project);
  checkBatchRefs(given);
  const drafts = await withCitedDigests(ctx, project, given);
  const refs = usesBatchRefs(drafts);
  for (let attempt = 1; ; attempt++) {
    try {
      return await addUnderLock(ctx, caller, project, drafts, refs, reason, effects);
    } catch (error) {
      const moved =
        isMemError(error) &&
        error.code === 'CONFLICT' &&
        (error.details as { expected_first_seq?: unknown } | undefined)?.expected_first_seq !==
          undefined;
      if (!refs || !moved || attempt >= REF_BATCH_ATTEMPTS) throw error;
    }
  }
}

function addUnderLock(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  drafts: readonly AddDraft[],
  refs: boolean,
  reason: string | undefined,
  effects: RunEffects,
): Promise<WrittenOut> {
  // The checks and the append are one section under the project's item-write lock: a delete of
  // a parent or another add's budget check cannot run between them.
  return underItemWrite(ctx, project, async (items) => {
    const ledger = draftLedger(
      items,
      project,
      drafts.flatMap((d) => [...(d.parent !== undefined ? [d.parent] : []), ...(d.anchors ?? [])]),
      drafts.some(unanchoredKnowledge),
    );
    // Parent and anchors by id name items already in the store; the refs were checked before.
    drafts.forEach((draft, i) => checkDraft(ledger, caller, draft, i));
    requireKnowledgeRoom(
      ledger,
      orientBudget(ctx),
      drafts.filter(unanchoredKnowledge).map((d) => ({ type: d.type, summary: d.summary })),
    );
    const firstSeq = refs ? (await ctx.engine.head(project)).seq + 1 : undefined;
    const resolved = resolveBatchRefs(project, drafts, firstSeq ?? 0);
    const payloads: Payload[] = resolved.map(({ type, ...fields }) => ({
      type: 'item_added',
      item_type: type,
      ...fields,
      ...(reason !== undefined ? { reason } : {}),
    }));
    const result = await ctx.engine.append(project, payloads, writerOf(caller), {
      ...ITEM_APPEND,
      ...(effects.idempotency ? { idempotency: effects.idempotency } : {}),
      ...(firstSeq !== undefined ? { firstSeq } : {}),
    });
    return addedItems(result);
  });
}

/**
 * The batch with each citation's digest (citedDigest): a local path inside the data root and
 * the project's cites, read now, its digest computed when not given; before anything is written.
 * Trigger: a citation with no digest that is not a local file (https:, jira:). Why: it is never
 * read, so the digest is the only word for what was cited. Outcome: INVALID_INPUT naming it.
 */
async function withCitedDigests(
  ctx: RegistryContext,
  project: string,
  drafts: readonly AddDraft[],
): Promise<AddDraft[]> {
  const scope = citingScope(ctx.engine.paths);
  const out: AddDraft[] = [];
  for (const [i, draft] of drafts.entries()) {
    if (draft.source_uri === undefined) {
      out.push(draft);
      continue;
    }
    const field = `items[${i}].source_uri`;
    const digest = await citedDigest(draft.source_uri, scope, field, project, draft.source_sha256);
    if (digest === undefined) throw unpairedSource(`items[${i}].source_sha256`);
    out.push({ ...draft, source_sha256: digest });
  }
  return out;
}

/** A citation that is not a local file, given without its digest. */
export function unpairedSource(field: string): MemError {
  return new MemError(
    'INVALID_INPUT',
    `${field}: expected source_uri and source_sha256 together for a URI that is not a local file (a local file's digest is read when not given)`,
    { field },
  );
}

/** Knowledge with no anchor, by id or by ref: the always-loaded set's budget counts it. */
function unanchoredKnowledge(d: AddDraft): boolean {
  return (
    isKnowledge(d.type) && (d.anchors ?? []).length === 0 && (d.anchor_refs ?? []).length === 0
  );
}
