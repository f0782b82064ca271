import { ITEM_HANDLES, type ItemStore } from '@mem/projector-sqlite';
import type { RegistryContext } from '../../context.js';
import { ledgerOf } from './ledger.js';
import { requireItem } from './view.js';

/**
 * `mem history it-…`: every event that changed the item — added, updated (a confirm too),
 * resolved, related, unrelated, deleted, filed by attention, pinned, unpinned, logged — with who
 * (principal, token label) and why, from the item store's item_history rows (caught up to the
 * log head), not a fold of the project's log.
 */
export function itemHistory(ctx: RegistryContext, project: string, id: string) {
  // Settled (stores.ts): the item and its rows are read from one state of the store.
  return ctx.stores.settledRead([project], ({ items }) =>
    Promise.resolve(historyOf(items, project, id)),
  );
}

function historyOf(items: ItemStore, project: string, id: string) {
  const item = requireItem(ledgerOf(project, items.itemsById([project], [id])), id, 'ref');
  return {
    project,
    target: id,
    target_kind: 'item' as const,
    entries: items.itemHistory(project, id).map((e) => ({
      seq: e.seq,
      ts: e.ts,
      type: e.type as ItemHistoryType,
      target: id,
      actor: e.actor,
      token: e.token,
      reason: e.reason,
      before_sha256: null,
      // Items are not content-addressed: the event type and reason say what changed.
      after_sha256: null,
      // A promoted fact or rule names the line it came from (issue 13 §1): the item row keeps
      // its item_added event's from_line.
      ...(e.type === 'item_added' && item.from_line ? { from_line: item.from_line } : {}),
      // A log entry (add_log) is its own history: what it said and the conversation it named.
      ...(e.text !== null ? { text: e.text } : {}),
      ...(e.conversation !== null ? { conversation: e.conversation } : {}),
      // A relate or unrelate names the relation and the other item it was to.
      ...(e.relation !== null ? { relation: e.relation } : {}),
      ...(e.other !== null ? { related: e.other } : {}),
      ...(e.side !== null ? { end: e.side } : {}),
    })),
  };
}

/** The item event types item_history holds: the projector writes a row for each it applies. */
export const ITEM_HISTORY_TYPES = ITEM_HANDLES;
type ItemHistoryType = (typeof ITEM_HISTORY_TYPES)[number];
