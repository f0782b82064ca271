import { itemKey, type ItemHoldBack } from '@mem/query';
import type { ItemRow } from '@mem/projector-sqlite';
import type { RegistryContext } from '../context.js';
import { MAX_FRESHNESS_WARNINGS, judgeItem, type FreshnessWarning } from './items/freshness.js';
import { citingScope } from './items/source-check.js';

/** What a query answer says of the recalled items it did not deliver plainly. */
export interface QueryFreshness {
  freshness_warnings: FreshnessWarning[];
  freshness_warnings_left_out?: number;
}

/**
 * The freshness gate of a query's curated items: find_items' rule itself (judgeItem), read
 * against the caller's clock: an expired, review-due, changed-source or long-open item is held
 * back unless `includeStale`, and named either way. Only recalled items are judged (at most the
 * recall depth), so a cited source is re-read for those alone. Which items are recalled at all
 * (not deleted, not archived) is the query package's to decide (itemRowsOf), not a verdict.
 */
export function queryItemFreshness(
  ctx: RegistryContext,
  includeStale: boolean,
): { holdBack: ItemHoldBack; answer: () => QueryFreshness } {
  const now = ctx.recallNow();
  const scope = citingScope(ctx.engine.paths);
  const named: { row: ItemRow; warning: FreshnessWarning }[] = [];
  const holdBack: ItemHoldBack = async (rows) => {
    const held = new Set<string>();
    for (const row of rows) {
      const { warning, held: holds } = await judgeItem(row, now, scope, includeStale);
      if (warning === null) continue;
      named.push({ row, warning });
      if (holds) held.add(itemKey(row));
    }
    return held;
  };
  const answer = (): QueryFreshness => {
    // Oldest first, as find_items lists them.
    const all = [...named]
      .sort(
        (a, b) =>
          a.row.created_seq - b.row.created_seq ||
          a.row.project.localeCompare(b.row.project) ||
          a.row.id.localeCompare(b.row.id),
      )
      .map((n) => n.warning);
    const listed = all.slice(0, MAX_FRESHNESS_WARNINGS);
    return {
      freshness_warnings: listed,
      ...(all.length > listed.length
        ? { freshness_warnings_left_out: all.length - listed.length }
        : {}),
    };
  };
  return { holdBack, answer };
}
