import type { ItemStore, NodeRow } from '@mem/projector-sqlite';
import type { Fused } from './fusion.js';
import type { TermsHeld } from './keyword-recall.js';
import { matchExpression } from './keyword-terms.js';

/**
 * Fills `matched_terms` and `coverage` of the keyword-recalled candidates (at most the recall
 * depth): which terms each node holds, as FTS5 matches them so stemming and tokenising agree
 * with the recall. `held` (the keyword recall's own postings) answers the one-token terms of
 * the nodes it names; FTS5 is asked about the rest, one statement, one match per term.
 * Decision: a pasted log's 32 terms were 32 passes over node_fts's postings per page, each
 * term's postings already read by the recall (a small set's from its own index).
 */
export function annotateMatchedTerms(
  items: ItemStore,
  terms: readonly string[],
  rows: readonly { fused: Fused; node: NodeRow }[],
  held?: TermsHeld,
): void {
  const recalled = rows.filter((row) => row.fused.ranking.keyword !== null);
  if (recalled.length === 0 || terms.length === 0) return;
  // Every row a recall hit (a row it does not name: FTS5 is asked about every term).
  const complete = held !== undefined && recalled.every(({ node }) => held.byNode.has(node.id));
  const asked = complete ? held.others : terms.map((_, i) => i);
  const matched =
    asked.length === 0
      ? new Map<number, number[]>()
      : items.matchedTerms(
          asked.map((i) => matchExpression([terms[i]!], 'OR')!),
          recalled.map((row) => row.node.id),
        );
  for (const { fused, node } of recalled) {
    const keyword = fused.ranking.keyword!;
    const fromFts = (matched.get(node.id) ?? []).map((j) => asked[j]!);
    const indexes = complete ? [...held.byNode.get(node.id)!, ...fromFts] : fromFts;
    keyword.matched_terms = indexes.sort((x, y) => x - y).map((i) => terms[i]!);
    keyword.coverage = keyword.matched_terms.length / terms.length;
  }
}
