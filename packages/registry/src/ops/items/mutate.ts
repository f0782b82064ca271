import { z } from 'zod';
import {
  MemError,
  fieldApplies,
  inapplicableDetails,
  inapplicableMessage,
  isKnowledge,
  isResolved,
  itemIdField,
  itemReasonField,
  itemStatusField,
  isoTimeInputField,
  relationField,
  sourceSha256Field,
  sourceUriField,
  requireTransition,
  summaryField,
  tagField,
  type ItemField,
  type Payload,
} from '@mem/core';
import { requireCapability, requireReach, writerOf, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import type { ItemStore } from '@mem/projector-sqlite';
import { ledgerOf, type ItemState } from './ledger.js';
import { ITEM_APPEND, underItemWrite } from './item-write.js';
import { requireItem } from './view.js';
import { unpairedSource, type WrittenOut } from './add-items.js';
import { requireKnowledgeRoom } from './budget.js';
import { citedDigest, citingScope } from './source-check.js';
import { orientBudget } from './orient.js';

export const updateItemInput = z.strictObject({
  project: projectInput,
  id: itemIdField,
  summary: summaryField.optional(),
  detail: z.string().trim().min(1).max(20_000).optional(),
  tags: z.array(tagField).max(32).optional(),
  status: itemStatusField.optional(),
  due: isoTimeInputField.optional(),
  remind_at: isoTimeInputField.optional(),
  valid_until: isoTimeInputField.optional(),
  review_after: isoTimeInputField.optional(),
  source_uri: sourceUriField.optional(),
  source_sha256: sourceSha256Field.optional(),
  reason: itemReasonField,
});

export const relateItemsInput = z.strictObject({
  project: projectInput,
  item: itemIdField,
  relation: relationField,
  target: itemIdField,
  /** Remove the relation instead of adding it (a reason is then required). */
  remove: z.boolean().optional(),
  reason: itemReasonField.optional(),
});

export const deleteItemsInput = z.strictObject({
  project: projectInput,
  ids: z.array(itemIdField).min(1).max(100),
  reason: itemReasonField,
});

async function write(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  payloads: Payload[],
  ids: string[],
): Promise<WrittenOut> {
  if (payloads.length === 0) return { project, ids: [], seq: null };
  const result = await ctx.engine.append(project, payloads, writerOf(caller), ITEM_APPEND);
  return { project, ids, seq: result.last_seq };
}

const UPDATABLE = [
  'detail',
  'tags',
  'status',
  'due',
  'remind_at',
  'valid_until',
  'review_after',
  'source_uri',
  'source_sha256',
] as const satisfies readonly ItemField[];

/** `update_item`: fields that apply to the item's type; a status move its machine allows (resolving is resolve_items). */
export async function updateItem(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof updateItemInput>,
): Promise<WrittenOut> {
  requireReach(caller, input.project);
  const cited = await withCitedDigest(ctx, input);
  return underItemWrite(ctx, input.project, (items) => updateChecked(ctx, caller, cited, items));
}

/**
 * The update with its citation's digest (citedDigest): a new local path inside the data root
 * and the project's cites, read now, its digest computed when not given. A digest alone, or a
 * URI that is not a local file without one, cannot be checked: INVALID_INPUT naming it.
 */
async function withCitedDigest(
  ctx: RegistryContext,
  input: z.infer<typeof updateItemInput>,
): Promise<z.infer<typeof updateItemInput>> {
  if (input.source_uri === undefined) {
    if (input.source_sha256 === undefined) return input;
    throw new MemError(
      'INVALID_INPUT',
      'source_uri: expected source_uri and source_sha256 together: a cited source is checked against its digest',
      { field: 'source_uri' },
    );
  }
  const scope = citingScope(ctx.engine.paths);
  const digest = await citedDigest(
    input.source_uri,
    scope,
    'source_uri',
    input.project,
    input.source_sha256,
  );
  if (digest === undefined) throw unpairedSource('source_sha256');
  return { ...input, source_sha256: digest };
}

async function updateChecked(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof updateItemInput>,
  items: ItemStore,
): Promise<WrittenOut> {
  const ledger = ledgerOf(input.project, items.itemsById([input.project], [input.id]));
  const item = requireItem(ledger, input.id, 'id', true);
  if (item.type === 'rule') requireCapability(caller, 'may_write_rules');
  for (const field of UPDATABLE)
    if (input[field] !== undefined && !fieldApplies(field, item.type)) {
      // One details shape with add_items and remember (inapplicableDetails), issues and all.
      const { expected, ...details } = inapplicableDetails(field, item.type);
      const problem = inapplicableMessage(field, item.type);
      throw new MemError('INVALID_INPUT', `update_item: ${field}: ${problem}`, {
        field,
        expected,
        ...details,
        issues: [{ field, expected, problem }],
      });
    }
  const { project: _p, id, reason, ...fields } = input;
  if (Object.keys(fields).length === 0)
    throw new MemError('INVALID_INPUT', '(input): expected at least one field to change', {
      field: '(input)',
    });
  if (input.status !== undefined) {
    if (isResolved(input.status))
      throw new MemError(
        'INVALID_INPUT',
        `status: ${input.status} is set by resolve_items, which asks about open descendants`,
        { field: 'status' },
      );
    if (input.status !== item.status) requireTransition(id, item.type, item.status, input.status);
  }
  if (
    input.summary !== undefined &&
    (item.type === 'rule' || item.type === 'fact') &&
    item.anchors.length === 0
  )
    requireKnowledgeRoom(
      ledgerOf(input.project, items.unanchored([input.project], item.type)),
      orientBudget(ctx),
      [{ type: item.type, id, summary: input.summary }],
    );
  return write(
    ctx,
    caller,
    input.project,
    [{ type: 'item_updated', item: id, ...fields, reason }],
    [id],
  );
}

/** CONFLICT unless relating `item` → `target` keeps the relation's shape (seed 000 §4.4). */
function checkRelation(
  items: ItemStore,
  item: ItemState,
  relation: string,
  target: ItemState,
): void {
  const work = (i: ItemState, field: string) => {
    if (isKnowledge(i.type))
      throw new MemError(
        'INVALID_INPUT',
        `${field}: ${i.id} is a ${i.type}; a ${relation} joins work items`,
        { field, id: i.id, type: i.type },
      );
  };
  if (relation === 'parent') {
    work(item, 'item');
    work(target, 'target');
    if (item.parent !== null && item.parent !== target.id)
      throw new MemError(
        'CONFLICT',
        `${item.id} already has the parent ${item.parent}: an item has one parent`,
        { id: item.id, parent: item.parent },
      );
    if (items.descendants(item.project, item.id).some((d) => d.id === target.id))
      throw new MemError(
        'CONFLICT',
        `${target.id} is under ${item.id}: that parent would make a cycle`,
        { id: item.id, target: target.id },
      );
  } else if (relation === 'anchor') {
    if (!isKnowledge(item.type))
      throw new MemError(
        'INVALID_INPUT',
        `item: ${item.id} is a ${item.type}; an anchor is knowledge (rule, fact) about work`,
        { field: 'item', id: item.id },
      );
    work(target, 'target');
  } else if (relation === 'blocked_by') {
    work(item, 'item');
    work(target, 'target');
  }
}

const LISTED = { anchor: 'anchors', blocked_by: 'blocked_by', link: 'links' } as const;

/** Which of `ids` (of `project`) are deleted items. */
function deletedItems(items: ItemStore, project: string, ids: readonly string[]): Set<string> {
  if (ids.length === 0) return new Set();
  const rows = items.itemsById([project], [...new Set(ids)]);
  return new Set(rows.filter((row) => row.deleted).map((row) => row.id));
}

function related(
  item: ItemState,
  relation: z.infer<typeof relationField>,
  target: string,
): boolean {
  return relation === 'parent' ? item.parent === target : item[LISTED[relation]].includes(target);
}

/** `relate_items`: add or remove one relation; one that already holds (or is already gone) writes nothing. */
export async function relateItems(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof relateItemsInput>,
): Promise<WrittenOut> {
  requireReach(caller, input.project);
  return underItemWrite(ctx, input.project, (items) => relateChecked(ctx, caller, input, items));
}

async function relateChecked(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof relateItemsInput>,
  items: ItemStore,
): Promise<WrittenOut> {
  const ledger = ledgerOf(
    input.project,
    items.itemsById([input.project], [input.item, input.target]),
  );
  const item = requireItem(ledger, input.item, 'item', true);
  if (item.type === 'rule') requireCapability(caller, 'may_write_rules');
  // The target is looked up in the item's own project only: a parent in another project is NOT_FOUND here.
  const target = requireItem(ledger, input.target, 'target', true);
  const ids = [item.id];
  if (input.remove === true) {
    if (input.reason === undefined)
      throw new MemError(
        'INVALID_INPUT',
        'reason: expected a reason: removing a relation says why',
        { field: 'reason' },
      );
    if (!related(item, input.relation, target.id))
      return write(ctx, caller, input.project, [], ids);
    // A deleted anchor opens nothing: the sole live one is the sole anchor (else the knowledge
    // would be loaded neither by T0 nor by any thread's T1).
    const others = item.anchors.filter((a) => a !== target.id);
    const gone = input.relation === 'anchor' ? deletedItems(items, input.project, others) : null;
    if (gone !== null && others.every((a) => gone.has(a)))
      throw new MemError(
        'CONFLICT',
        `${target.id} is the sole ${item.anchors.length > 1 ? 'live ' : ''}anchor of ${item.id}${item.anchors.length > 1 ? ' (its other anchors are deleted)' : ''}: re-anchor it, or delete it deliberately`,
        { knowledge: [item.id], anchor: target.id },
      );
    return write(
      ctx,
      caller,
      input.project,
      [
        {
          type: 'item_unrelated',
          item: item.id,
          relation: input.relation,
          target: target.id,
          reason: input.reason,
        },
      ],
      ids,
    );
  }
  if (item.id === target.id)
    throw new MemError(
      'INVALID_INPUT',
      'target: expected another item: an item cannot relate to itself',
      { field: 'target' },
    );
  checkRelation(items, item, input.relation, target);
  if (related(item, input.relation, target.id)) return write(ctx, caller, input.project, [], ids);
  return write(
    ctx,
    caller,
    input.project,
    [
      {
        type: 'item_related',
        item: item.id,
        relation: input.relation,
        target: target.id,
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
      },
    ],
    ids,
  );
}

/**
 * `delete_items` (admin, soft): the items and their descendants. Trigger: a deleted item is the
 * sole anchor of knowledge that stays. Why: "not destroyed" is not "still reachable" (seed 000
 * §4.6). Outcome: CONFLICT naming that knowledge, nothing written.
 */
export async function deleteItems(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof deleteItemsInput>,
): Promise<WrittenOut> {
  requireReach(caller, input.project);
  return underItemWrite(ctx, input.project, (items) => deleteChecked(ctx, caller, input, items));
}

async function deleteChecked(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof deleteItemsInput>,
  items: ItemStore,
): Promise<WrittenOut> {
  const ledger = ledgerOf(input.project, items.itemsById([input.project], input.ids));
  const doomed = new Set<string>();
  input.ids.forEach((id, i) => {
    const item = requireItem(ledger, id, `ids[${i}]`);
    if (item.deleted) return;
    // Admin alone does not unmake a binding directive: deleting a rule asks what archiving one does.
    if (item.type === 'rule') requireCapability(caller, 'may_write_rules');
    doomed.add(id);
    for (const d of items.descendants(input.project, id)) doomed.add(d.id);
  });
  // Only knowledge anchored to a doomed item can be stranded by deleting it; an anchor deleted
  // before strands as surely as one deleted now.
  const anchored = items
    .anchoredToAny(input.project, [...doomed])
    .filter((k) => !k.deleted && !doomed.has(k.id) && k.anchors.length > 0);
  const gone = deletedItems(
    items,
    input.project,
    anchored.flatMap((k) => k.anchors),
  );
  const stranded = anchored.filter((k) => k.anchors.every((a) => doomed.has(a) || gone.has(a)));
  if (stranded.length > 0)
    throw new MemError(
      'CONFLICT',
      `deleting would leave ${stranded.map((k) => k.id).join(', ')} with no anchor: re-anchor or delete ${stranded.length === 1 ? 'it' : 'them'} first`,
      {
        knowledge: stranded.map((k) => k.id),
      },
    );
  const ids = [...doomed];
  return write(
    ctx,
    caller,
    input.project,
    ids.map((id) => ({ type: 'item_deleted', item: id, reason: input.reason })),
    ids,
  );
}
