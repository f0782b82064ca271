import { z } from 'zod';
import {
  MemError,
  fieldApplies,
  inapplicableMessage,
  itemIdField,
  itemReasonField,
  isoTimeInputField,
} from '@mem/core';
import { requireCapability, requireReach, writerOf, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import type { WrittenOut } from './add-items.js';
import { ledgerOf } from './ledger.js';
import { ITEM_APPEND, underItemWrite } from './item-write.js';
import { requireItem } from './view.js';

export const confirmItemInput = z.strictObject({
  project: projectInput,
  id: itemIdField,
  /** The next review date: after the caller's clock, so the confirmed item is fresh again. */
  review_after: isoTimeInputField,
  reason: itemReasonField.optional(),
});

/** Recorded when the caller gives no reason: what a confirmation says. */
const CONFIRMED = 'confirmed still true';

/**
 * `confirm_item`: a person says a fact or rule still holds (seed 004: confirm resets the review
 * clock). Recorded as an `item_updated` carrying the next review date, so the log says who
 * confirmed it, when and why, and every projection folds it like any other update.
 */
export async function confirmItem(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof confirmItemInput>,
): Promise<WrittenOut> {
  requireReach(caller, input.project);
  return underItemWrite(ctx, input.project, async (items) => {
    const ledger = ledgerOf(input.project, items.itemsById([input.project], [input.id]));
    const item = requireItem(ledger, input.id, 'id', true);
    if (!fieldApplies('review_after', item.type))
      throw new MemError(
        'INVALID_INPUT',
        `id: ${inapplicableMessage('review_after', item.type)}; resolve a ${item.type} instead`,
        { field: 'id', type: item.type },
      );
    if (item.type === 'rule') requireCapability(caller, 'may_write_rules');
    const now = ctx.recallNow();
    // Trigger: a review date at or before now. Why: the item would be stale the moment it was
    // confirmed. Outcome: refused, naming the clock it was read against.
    if (Date.parse(input.review_after) <= now.getTime())
      throw new MemError(
        'INVALID_INPUT',
        `review_after: expected a date after now (${now.toISOString()}), got ${input.review_after}`,
        { field: 'review_after', now: now.toISOString() },
      );
    const result = await ctx.engine.append(
      input.project,
      [
        {
          type: 'item_updated',
          item: item.id,
          review_after: input.review_after,
          reason: input.reason ?? CONFIRMED,
        },
      ],
      writerOf(caller),
      ITEM_APPEND,
    );
    return { project: input.project, ids: [item.id], seq: result.last_seq };
  });
}
