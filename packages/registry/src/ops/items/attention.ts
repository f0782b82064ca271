import { z } from 'zod';
import {
  attentionField,
  itemIdField,
  itemReasonField,
  type AttentionTier,
  type Payload,
} from '@mem/core';
import { requireCapability, requireReach, writerOf, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { projectInput } from '../schemas.js';
import { writtenOut, type WrittenOut } from './add-items.js';
import type { ItemStore } from '@mem/projector-sqlite';
import { alwaysLoaded, ledgerOf } from './ledger.js';
import { requireKnowledgeRoom } from './budget.js';
import { orientBudget } from './orient.js';
import { ITEM_APPEND, underItemWrite } from './item-write.js';
import { requireItem } from './view.js';

/*
 * Issue 13 §5, seed 004: an item's attention tier (active, reference, archive) and its pin are
 * events, so a rebuild files it the same way. Neither is activity: recency does not move.
 */

const TOOL = 'items';
const projectFlag = {
  field: 'project',
  flag: '--project <name>',
  description: 'the project the item belongs to',
};

export const setAttentionInput = z.strictObject({
  project: projectInput,
  id: itemIdField,
  attention: attentionField,
  reason: itemReasonField.optional(),
});

export const pinItemInput = z.strictObject({
  project: projectInput,
  id: itemIdField,
  reason: itemReasonField.optional(),
});
type PinInput = z.infer<typeof pinItemInput>;

/** The item's filing as the store holds it now; NOT_FOUND (naming `id`) for an unknown or deleted one. */
function filingOf(items: ItemStore, project: string, id: string) {
  const row = requireItem(ledgerOf(project, items.itemsById([project], [id])), id, 'id', true);
  return { attention: row.attention, pinned: row.pinned, row };
}

/**
 * BUDGET_EXCEEDED unless an archived rule or fact filed back (active or reference) fits the
 * always-loaded cap. Trigger: archiving freed its room (T0 and the budget leave it out). Why:
 * filing it back grows the section like a new write. Outcome: refused with the cap and the
 * candidates, as add_items is; anything else refiled passes.
 */
function requireRoomToReturn(
  ctx: RegistryContext,
  items: ItemStore,
  project: string,
  now: ReturnType<typeof filingOf>,
  attention: AttentionTier,
): void {
  const back = { ...now.row, attention };
  if (now.attention !== 'archive' || !alwaysLoaded(back)) return;
  const type = back.type as 'rule' | 'fact';
  requireKnowledgeRoom(ledgerOf(project, items.unanchored([project], type)), orientBudget(ctx), [
    { type, summary: back.summary },
  ]);
}

/** Files the item under its project's item-write lock: `plan` reads its filing, then the append. */
function refile(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  id: string,
  plan: (now: ReturnType<typeof filingOf>, items: ItemStore) => Payload | null,
): Promise<WrittenOut> {
  requireReach(caller, project);
  return underItemWrite(ctx, project, (items) =>
    appendOne(ctx, caller, project, id, plan(filingOf(items, project, id), items)),
  );
}

async function appendOne(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  id: string,
  payload: Payload | null,
): Promise<WrittenOut> {
  if (payload === null) return { project, ids: [], seq: null };
  const result = await ctx.engine.append(project, [payload], writerOf(caller), ITEM_APPEND);
  return { project, ids: [id], seq: result.last_seq };
}

const writtenText = (verb: string) => (out: WrittenOut) =>
  out.seq === null
    ? `nothing to write: already ${verb}`
    : `${verb} ${out.ids.join(', ')} in ${out.project} (seq ${out.seq})`;

/** `set_attention`: files an item as active, reference or archive; the same tier again writes nothing. */
export const setAttentionOp = defineOperation({
  name: 'set_attention',
  summary: "set an item's attention tier: active, reference or archive (archive leaves recall)",
  input: setAttentionInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/items/attention' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'attention' } },
  cli: {
    command: ['items', 'attention'],
    args: ['id', 'attention'],
    options: [
      projectFlag,
      { field: 'reason', flag: '--reason <text>', description: 'why (recorded)' },
    ],
    text: writtenText('filed'),
  },
  run: (ctx, caller, input) =>
    refile(ctx, caller, input.project, input.id, (now, items) => {
      if (now.attention === input.attention) return null;
      // A rule's tier decides whether it binds (archive leaves T0): filing one anywhere makes or
      // unmakes a directive, so it asks what writing one asks (seed 000 §3.1), as a review fold does.
      if (now.row.type === 'rule') requireCapability(caller, 'may_write_rules');
      requireRoomToReturn(ctx, items, input.project, now, input.attention);
      return {
        type: 'item_attention_set',
        item: input.id,
        attention: input.attention,
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
      };
    }),
});

function pinOp(pinned: boolean) {
  const verb = pinned ? 'pinned' : 'unpinned';
  return defineOperation({
    name: pinned ? 'pin_item' : 'unpin_item',
    summary: pinned
      ? 'pin an item: first within its relevance band, never above a stronger match'
      : "remove an item's pin",
    input: pinItemInput,
    output: writtenOut,
    kind: 'write',
    vectorsLater: true,
    idempotent: true,
    auth: { access: 'token', project: 'project' },
    http: { method: 'POST', path: `/memory/items/${pinned ? 'pin' : 'unpin'}` },
    mcp: { tool: TOOL, select: { field: 'action', value: pinned ? 'pin' : 'unpin' } },
    cli: {
      command: ['items', pinned ? 'pin' : 'unpin'],
      args: ['id'],
      options: [
        projectFlag,
        { field: 'reason', flag: '--reason <text>', description: 'why (recorded)' },
      ],
      text: writtenText(verb),
    },
    run: (ctx, caller, input: PinInput) =>
      refile(ctx, caller, input.project, input.id, (now) =>
        now.pinned === pinned
          ? null
          : {
              type: pinned ? 'item_pinned' : 'item_unpinned',
              item: input.id,
              ...(input.reason !== undefined ? { reason: input.reason } : {}),
            },
      ),
  });
}

/** `pin_item` and `unpin_item`: a pin again (or an unpin of an unpinned item) writes nothing. */
export const pinItemOp = pinOp(true);
export const unpinItemOp = pinOp(false);
