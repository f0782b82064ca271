import { z } from 'zod';
import { conversationLabelField, itemIdField, itemLogTextField, itemReasonField } from '@mem/core';
import { requireReach, writerOf, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { projectInput } from '../schemas.js';
import { writtenOut, type WrittenOut } from './add-items.js';
import { ledgerOf } from './ledger.js';
import { ITEM_APPEND, underItemWrite } from './item-write.js';
import { requireItem } from './view.js';

/*
 * Seed 000 §6 `add_log`: a history entry on an item without changing it. It is activity, so a
 * thread's last activity (and its parents') moves; T0's rules and facts carry no activity, so
 * logging against one leaves the cached prefix byte-identical (M3.13's trap).
 */

export const addLogInput = z.strictObject({
  project: projectInput,
  id: itemIdField,
  text: itemLogTextField,
  conversation: conversationLabelField.optional(),
  reason: itemReasonField.optional(),
});
type AddLogInput = z.infer<typeof addLogInput>;

/**
 * Appends one item_logged event under the project's item-write lock: the item must be a live
 * item of the project (NOT_FOUND naming `id` otherwise, another project's too), checked against
 * the store caught up to the head, so a delete cannot land between the check and the append.
 */
async function addLog(
  ctx: RegistryContext,
  caller: Caller,
  input: AddLogInput,
): Promise<WrittenOut> {
  requireReach(caller, input.project);
  return underItemWrite(ctx, input.project, async (items) => {
    requireItem(
      ledgerOf(input.project, items.itemsById([input.project], [input.id])),
      input.id,
      'id',
      true,
    );
    const result = await ctx.engine.append(
      input.project,
      [
        {
          type: 'item_logged',
          item: input.id,
          text: input.text,
          ...(input.conversation !== undefined ? { conversation: input.conversation } : {}),
          ...(input.reason !== undefined ? { reason: input.reason } : {}),
        },
      ],
      writerOf(caller),
      ITEM_APPEND,
    );
    return { project: input.project, ids: [input.id], seq: result.last_seq };
  });
}

/** `add_log` (`mem items log ID TEXT`): a history entry that moves the item's activity, never its fields. */
export const addLogOp = defineOperation({
  name: 'add_log',
  summary: "append a history entry to an item without changing it (moves its thread's activity)",
  input: addLogInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: false,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/items/{id}/log', status: 201 },
  mcp: { tool: 'items', select: { field: 'action', value: 'log' } },
  cli: {
    command: ['items', 'log'],
    args: ['id', 'text'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'the project the item belongs to',
      },
      {
        field: 'conversation',
        flag: '--conversation <label>',
        description: 'the conversation it was written in (a label of your choosing)',
      },
      { field: 'reason', flag: '--reason <text>', description: 'why (recorded)' },
    ],
    text: (out) => `logged on ${out.ids.join(', ')} in ${out.project} (seq ${out.seq})`,
  },
  run: (ctx, caller, input) => addLog(ctx, caller, input),
});
