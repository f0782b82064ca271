import { z } from 'zod';
import {
  CITATION_EXCERPT_CHARS,
  CITATION_MODES,
  DEFAULT_CITATIONS,
  DEFAULT_LEVELS,
  DEFAULT_LIMIT,
  INSUFFICIENT_RECALL,
  MAX_LIMIT,
  RECALL_LEVELS,
  defaultFloor,
  defaultWeights,
  queryMemory,
  type QueryDeps,
} from '@mem/query';
import { openStoreAsOf } from '../as-of-store.js';
import { requireReach } from '../caller.js';
import { defineOperation } from '../operation.js';
import type { StoreView } from '../stores.js';
import { asOfInput, asOfNote, resolveAsOf } from './query-as-of.js';
import { queryItemFreshness, type QueryFreshness } from './query-items.js';
import { queryOutput, recallLevel } from './query-output.js';
import { queryText, queryWarnings } from './query-text.js';
import {
  freshPage,
  heldBackWithDuplicates,
  unjudgedFolded,
  withHiddenWarnings,
  type LineFreshnessWarning,
} from './query-freshness.js';
import { visibleProjects } from './reach.js';
import { listInput, projectInput } from './schemas.js';

type Answer = z.infer<typeof queryOutput>;

/**
 * Hybrid query with citations, federated: over every project the caller reaches, or the ones
 * it names (each must be reachable, else 403 naming it). Fans out inside one recall whose
 * project filter is the reachable set, so another project's nodes, counts or totals never
 * enter the answer. Abstains when nothing clears the relevance floor (HTTP 204, unless it held
 * something back: then 200 with its freshness_warnings). This schema
 * is the one validator of a query, on every surface; the defaults are the query package's.
 * `as_of` answers from the log as it stood then (as-of-store.ts), keyword recall only, and
 * never with forgotten text; `include_superseded` adds the lines a correction replaced.
 */
export const query = defineOperation({
  name: 'query',
  summary:
    'ask the memory: keyword and vector recall fused, with L0 citations; abstains when nothing is relevant',
  input: z.strictObject({
    query: z.string().trim().min(1).max(2000),
    project: listInput(projectInput, 1, 100).optional(),
    level: listInput(recallLevel, 1, RECALL_LEVELS.length).optional(),
    limit: z.int().min(1).max(MAX_LIMIT).optional(),
    /** How much of each citation's text to return (DEFAULT_CITATIONS says why excerpts). */
    citations: z.enum(CITATION_MODES).default(DEFAULT_CITATIONS),
    /** Answer as the log stood at this seq (of the one project named) or ISO 8601 instant. */
    as_of: asOfInput.optional(),
    /** Also the lines a `superseded` event replaced, each marked `superseded_by`. */
    include_superseded: z.boolean().optional(),
    /** Also the stale and expired curated items and the lines whose cited session was rewritten or is gone, each still named in freshness_warnings. */
    include_stale: z.boolean().optional(),
  }),
  output: queryOutput,
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  reads: 'vectors',
  // Trigger: an abstention that held items or lines back. Why: its freshness_warnings are the
  // answer (what to confirm, correct or retire), and a 204 has no body. Outcome: 204 only when
  // nothing matched at all.
  http: {
    method: 'GET',
    path: '/memory/query',
    empty: (out) => out.abstained && out.freshness_warnings.length === 0,
  },
  mcp: {
    tool: 'query',
    description:
      'Ask the project memory a question (or paste an error). Returns memories with their evidence citations, or abstains. as_of answers as the log stood at a seq or ISO 8601 time (keyword recall only); forgotten text never returns, whatever the as_of. include_superseded adds the lines a correction replaced, marked superseded_by. Curated items (rules, facts, tasks…) come back beside memory lines, told apart by kind. An expired or stale item, and a line whose cited transcript span was rewritten (stale) or whose session is gone (unknown), is held back and named in freshness_warnings; include_stale delivers it, still named.',
  },
  cli: {
    command: ['query'],
    args: ['query'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'only this project (repeatable; default: every project)',
        parse: 'list',
        repeatable: true,
      },
      {
        field: 'level',
        flag: '--levels <list>',
        description: `levels to recall, comma-separated: ${DEFAULT_LEVELS.join(',')} (default; I: curated items), L0, R (reference docs only when asked)`,
        parse: 'list',
      },
      {
        field: 'limit',
        flag: '--limit <n>',
        description: `at most n results (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`,
        parse: 'integer',
      },
      {
        field: 'citations',
        flag: '--citations <mode>',
        description: `how much of each citation's text: ${CITATION_MODES.join('|')} (default ${DEFAULT_CITATIONS}: its first ${CITATION_EXCERPT_CHARS} characters)`,
      },
      {
        field: 'as_of',
        flag: '--as-of <seq|iso>',
        description:
          'answer as the log stood then: a seq of the one --project, or an ISO 8601 timestamp (keyword recall only; forgotten text never returns)',
      },
      {
        field: 'include_superseded',
        flag: '--include-superseded',
        parse: 'boolean',
        description: 'also the lines a correction superseded, each marked superseded_by',
      },
      {
        field: 'include_stale',
        flag: '--include-stale',
        parse: 'boolean',
        description:
          'also the expired and stale curated items and the lines whose cited session was rewritten or deleted (each still named in freshness_warnings)',
      },
    ],
    text: queryText,
    warnings: queryWarnings,
  },
  run: async (ctx, caller, input) => {
    const projectsOf = async (view: StoreView) =>
      input.project ? [...new Set(input.project)].sort() : await visibleProjects(ctx, caller, view);
    for (const project of input.project ?? []) requireReach(caller, project);
    const requestOf = (projects: string[]) => ({
      text: input.query,
      projects,
      citations: input.citations,
      ...(input.level ? { levels: input.level } : {}),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.include_superseded ? { includeSuperseded: true } : {}),
      // One result for the hits that say one thing, its lineage in `folded` (issue 13 §5).
      fold: true,
    });
    if (input.as_of === undefined) {
      // Settled (stores.ts): vector hits are looked up in the item store, and a catch-up of
      // another process commits pgvector before SQLite; the answer is of one generation.
      // pgvector, which a write leaves behind, is caught up first (`vectors`).
      return ctx.stores.settledRead(
        input.project ?? [],
        async (view): Promise<Answer> => {
          const projects = await projectsOf(view);
          if (projects.length === 0)
            return abstain(input.level ?? DEFAULT_LEVELS, ctx.queryDeps ?? {});
          const stale = input.include_stale === true;
          const recall = async (withoutLines?: ReadonlySet<string>) => {
            const freshness = queryItemFreshness(ctx, stale);
            const answer = await queryMemory(requestOf(projects), {
              ...ctx.queryDeps,
              items: view.items,
              holdBackItems: freshness.holdBack,
              ...(withoutLines ? { withoutLines } : {}),
            });
            const lines = await freshPage(
              ctx,
              view.items,
              answer.results,
              stale,
              input.citations !== 'none',
            );
            return { freshness, answer, lines };
          };
          const first = await recall();
          // Trigger: a line held back (its cited session rewritten or gone) that had hits folded
          // into it. Why: they say the same on their own evidence, and leaving with a line the
          // caller never sees would hide them silently. Outcome: recall runs once more without
          // the held-back lines, which stay named among the warnings.
          const hidden = heldBackWithDuplicates(first.answer.results, first.lines.results);
          const { freshness, answer, lines } = hidden.size > 0 ? await recall(hidden) : first;
          return {
            ...answer,
            results: lines.results,
            ...queryFreshnessOf(
              freshness.answer(),
              hidden.size > 0 ? withHiddenWarnings(first.lines, hidden, lines) : lines,
            ),
          } satisfies Answer;
        },
        { vectors: true },
      );
    }
    const view = await ctx.stores.fresh();
    const projects = await projectsOf(view);
    if (projects.length === 0) return abstain(input.level ?? DEFAULT_LEVELS, ctx.queryDeps ?? {});
    const request = requestOf(projects);
    const freshness = queryItemFreshness(ctx, input.include_stale === true);
    const points = await resolveAsOf(ctx.engine, input.as_of, input.project, projects);
    const then = await openStoreAsOf(ctx.engine, points);
    try {
      const { floor, weights, keywordStrategy, postingsBudget } = ctx.queryDeps ?? {};
      // An as-of answer is the log as it stood: today's sources do not judge its lines.
      const answer = await queryMemory(request, {
        items: then.items,
        ...(floor ? { floor } : {}),
        ...(weights ? { weights } : {}),
        ...(keywordStrategy ? { keywordStrategy } : {}),
        ...(postingsBudget !== undefined ? { postingsBudget } : {}),
        asOf: { projects: points, note: asOfNote(points) },
        holdBackItems: freshness.holdBack,
      });
      return {
        ...answer,
        results: unjudgedFolded(answer.results),
        ...queryFreshnessOf(freshness.answer(), null),
      } satisfies Answer;
    } finally {
      await then.close();
    }
  },
});

/**
 * One warning list for the answer: the recalled items' (oldest first), then the page's lines'
 * (page order), each told apart by kind. Each side is bounded by its own gate; what either left
 * out is counted together.
 */
function queryFreshnessOf(
  items: QueryFreshness,
  lines: {
    freshness_warnings: LineFreshnessWarning[];
    freshness_warnings_left_out?: number;
  } | null,
): Pick<Answer, 'freshness_warnings' | 'freshness_warnings_left_out'> {
  const leftOut =
    (items.freshness_warnings_left_out ?? 0) + (lines?.freshness_warnings_left_out ?? 0);
  return {
    freshness_warnings: [
      ...items.freshness_warnings.map((w) => ({ kind: 'item' as const, ...w })),
      ...(lines?.freshness_warnings ?? []).map((w) => ({ kind: 'line' as const, ...w })),
    ],
    ...(leftOut > 0 ? { freshness_warnings_left_out: leftOut } : {}),
  };
}

/** Nothing to search (the caller reaches no project): the same answer as nothing found. */
function abstain(
  levels: readonly Answer['recall']['levels'][number][],
  deps: Pick<QueryDeps, 'floor' | 'weights'>,
): Answer {
  // Nothing ran (no reachable project): the keyword-only floor and weights, with the overrides a
  // real answer would use, so every answer says what it would have been cut at.
  return {
    results: [],
    abstained: true,
    reason: INSUFFICIENT_RECALL,
    freshness_warnings: [],
    recall: {
      signals: ['keyword'],
      vector: 'not configured',
      rerank: 'not configured',
      terms: [],
      left_out: [],
      projects: [],
      levels: [...levels],
      floor: { ...defaultFloor(null), ...deps.floor },
      weights: { ...defaultWeights(null), ...deps.weights },
      errors: [],
    },
  };
}
