import { z } from 'zod';
import { INSUFFICIENT_RECALL, MAX_LIMIT, queryMemory, type CitationMode, type QueryResult } from '@mem/query';
import { requireReach } from '../caller.js';
import { defineOperation } from '../operation.js';
import { visibleProjects } from './reach.js';
import { projectInput } from './schemas.js';

const level = z.enum(['L0', 'L1', 'L2', 'R']);

/** How much of each citation's text a query answer may carry. */
export const CITATION_MODES = ['excerpt', 'full', 'none'] as const satisfies readonly CitationMode[];

/**
 * The citations of a query that does not ask: on every surface (HTTP, MCP, `mem query`). Why
 * `excerpt`: an L0 citation is a whole chunk (up to 5,000 tokens) and a memory rests on many,
 * so full texts make a one-result answer hundreds of kilobytes, past what an agent's context
 * should take.
 */
export const DEFAULT_CITATIONS: (typeof CITATION_MODES)[number] = 'excerpt';

const citation = z.object({
  level,
  sha256: z.string(),
  source: z.string().nullable(),
  text: z.string(),
  t: z.number().nullable(),
  /** Characters (code points) of the whole text when `text` is an excerpt of its first 400. */
  text_chars: z.number().optional(),
});

const queryOutput = z.object({
  results: z.array(
    z.object({
      level,
      sha256: z.string(),
      project: z.string(),
      text: z.string(),
      source: z.string().nullable(),
      score: z.number(),
      tier: z.enum(['memory', 'evidence', 'reference']),
      ranking: z.record(z.string(), z.unknown()),
      parents: z.array(citation),
    }),
  ),
  abstained: z.boolean(),
  reason: z.literal(INSUFFICIENT_RECALL).optional(),
  recall: z.record(z.string(), z.unknown()),
});

/**
 * Hybrid query with citations, federated: over every project the caller reaches, or the ones
 * it names (each must be reachable, else 403 naming it). Fans out inside one recall whose
 * project filter is the reachable set, so another project's nodes, counts or totals never
 * enter the answer. Abstains (HTTP 204) when nothing clears the relevance floor.
 */
export const query = defineOperation({
  name: 'query',
  summary: 'ask the memory: keyword and vector recall fused, with L0 citations; abstains when nothing is relevant',
  input: z.strictObject({
    query: z.string().trim().min(1).max(2000),
    project: z.array(projectInput).min(1).max(100).optional(),
    level: z.array(level).min(1).max(4).optional(),
    limit: z.int().min(1).max(MAX_LIMIT).optional(),
    /** How much of each citation's text to return (DEFAULT_CITATIONS says why excerpts). */
    citations: z.enum(CITATION_MODES).default(DEFAULT_CITATIONS),
  }),
  output: queryOutput,
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'GET', path: '/memory/query', empty: (out) => out.abstained },
  mcp: { tool: 'query', description: 'Ask the project memory a question (or paste an error). Returns memories with their evidence citations, or abstains.' },
  run: async (ctx, caller, input) => {
    for (const project of input.project ?? []) requireReach(caller, project);
    const view = await ctx.stores.fresh();
    const projects = input.project ? [...new Set(input.project)].sort() : await visibleProjects(ctx, caller, view);
    if (projects.length === 0) return abstain(input.level ?? ['L1', 'L2']);
    const result: QueryResult = await queryMemory(
      { text: input.query, projects, citations: input.citations, ...(input.level ? { levels: input.level } : {}), ...(input.limit !== undefined ? { limit: input.limit } : {}) },
      { ...ctx.queryDeps, items: view.items },
    );
    return result as unknown as z.infer<typeof queryOutput>;
  },
});

/** Nothing to search (the caller reaches no project): the same answer as nothing found. */
function abstain(levels: readonly z.infer<typeof level>[]): z.infer<typeof queryOutput> {
  return {
    results: [],
    abstained: true,
    reason: INSUFFICIENT_RECALL,
    recall: { signals: ['keyword'], vector: 'not configured', rerank: 'not configured', terms: [], projects: [], levels: [...levels], errors: [] },
  };
}
