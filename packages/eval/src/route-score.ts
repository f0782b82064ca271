import { routeLine, routedKinds } from '@mem/extractor';
import type { GoldFile, LoadedGoldSet } from './gold-set.js';
import { round4 } from './metrics.js';

/** How the line router sorts the gold statements of some files among the set's questions. */
export interface RouteScore {
  statements: number;
  /** Statements the router sends to the question they are labelled under. */
  routed: number;
  accuracy: number | null;
  /** Per labelled question: statements and how many the router sends there. */
  per_query: Record<string, { statements: number; routed: number }>;
  /** The finding ids sent elsewhere, each with the question the router chose (null: none). */
  misrouted: { id: string; labelled: string; routed: string | null }[];
}

/**
 * Routes every gold statement of `files` by its words alone (routeLine) and counts how many
 * land under the question they are labelled under — every question that asks for a line's kind
 * receives it; a statement sent elsewhere is reported with the first question that takes it:
 * the router measured apart from extraction, on text a person wrote.
 */
export function scoreRouting(gold: LoadedGoldSet, files: readonly GoldFile[]): RouteScore {
  const kinds = gold.queries.map((q) => ({ id: q.id, kinds: routedKinds(q.question) }));
  const score: RouteScore = {
    statements: 0,
    routed: 0,
    accuracy: null,
    per_query: {},
    misrouted: [],
  };
  for (const file of files)
    for (const query of kinds) {
      if (query.kinds.size === 0) continue;
      const tally = (score.per_query[query.id] ??= { statements: 0, routed: 0 });
      for (const finding of file.findings[query.id] ?? []) {
        const kind = routeLine(finding.statement);
        const chosen = kinds.find((q) => q.kinds.has(kind))?.id ?? null;
        score.statements += 1;
        tally.statements += 1;
        // A line enters every note whose question takes its kind (a tool failure the bugs note
        // and the tool-failures note alike), so it reaches its own question when that takes it.
        if (query.kinds.has(kind)) {
          score.routed += 1;
          tally.routed += 1;
        } else score.misrouted.push({ id: finding.id, labelled: query.id, routed: chosen });
      }
    }
  score.accuracy = score.statements === 0 ? null : round4(score.routed / score.statements);
  return score;
}
