import type { RegistryContext } from '../../context.js';
import { readItemLedger } from './ledger.js';
import { requireItem } from './view.js';

/** `mem history it-…`: every event that wrote the item, with who (principal, token label) and why. */
export async function itemHistory(ctx: RegistryContext, project: string, id: string) {
  const item = requireItem(await readItemLedger(ctx, project), id, 'ref');
  return {
    project,
    target: id,
    target_kind: 'item' as const,
    entries: item.mutations.map((e) => ({
      seq: e.seq,
      ts: e.ts,
      type: e.type,
      target: id,
      actor: e.writer.principal ?? null,
      token: e.writer.token ?? null,
      reason: e.reason ?? null,
      before_sha256: null,
      // Items are not content-addressed: the event type and reason say what changed.
      after_sha256: null,
      // A promoted fact or rule names the line it came from (issue 13 §1).
      ...(e.type === 'item_added' && e.from_line ? { from_line: e.from_line } : {}),
    })),
  };
}
