import type { ItemStore, NodeRow } from '@mem/projector-sqlite';
import type { Fused } from './fusion.js';
import { matchExpression } from './keyword-terms.js';

/**
 * Fills `matched_terms` and `coverage` of the keyword-recalled candidates (at most the recall
 * depth): which terms each node holds, asked of FTS5 itself so stemming and tokenising agree
 * with the recall. One statement, one FTS5 match per term.
 */
export function annotateMatchedTerms(
  items: ItemStore,
  terms: readonly string[],
  rows: readonly { fused: Fused; node: NodeRow }[],
): void {
  const recalled = rows.filter((row) => row.fused.ranking.keyword !== null);
  if (recalled.length === 0 || terms.length === 0) return;
  const matched = items.matchedTerms(
    terms.map((term) => matchExpression([term], 'OR')!),
    recalled.map((row) => row.node.id),
  );
  for (const { fused, node } of recalled) {
    const keyword = fused.ranking.keyword!;
    keyword.matched_terms = (matched.get(node.id) ?? []).map((i) => terms[i]!);
    keyword.coverage = keyword.matched_terms.length / terms.length;
  }
}
