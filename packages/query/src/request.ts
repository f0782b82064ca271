import type { CitationMode } from './citations.js';
import type { QueryLevel } from './ports.js';

/**
 * What an agent asks, already checked: the registry's query operation validates every surface's
 * input against its zod schema (built from the constants below), so this module only applies
 * defaults. One validator, one set of defaults.
 */
export interface QueryRequest {
  /** The question, or a pasted error: plain text, never query syntax. */
  text: string;
  /** Only these projects (default: every project the store holds, `_system` aside). */
  projects?: readonly string[];
  /** Only these levels (default DEFAULT_LEVELS: R and L0 only when asked for). */
  levels?: readonly QueryLevel[];
  /** At most this many results (default DEFAULT_LIMIT, at most MAX_LIMIT). */
  limit?: number;
  /** How much of each citation's text to return (default DEFAULT_CITATIONS). */
  citations?: CitationMode;
  /** Also the lines a `superseded` event replaced, each marked with its successor (default false). */
  includeSuperseded?: boolean;
  /**
   * Fold the hits that say one thing into the best-ranked, its `folded` list naming the others
   * (fold-duplicates.ts), and refill the page (default false: `mem query` asks for it; tool
   * context packs lines by its own budget).
   */
  fold?: boolean;
}

/** A request with every default applied, projects and levels sorted and unique. */
export interface ResolvedRequest {
  text: string;
  projects: string[] | null;
  levels: QueryLevel[];
  limit: number;
  citations: CitationMode;
  includeSuperseded: boolean;
  fold: boolean;
}

/** Every level a query can recall, in the order answers list them. */
export const RECALL_LEVELS: readonly QueryLevel[] = ['L0', 'L1', 'L2', 'R', 'I'];
/**
 * What a query recalls unless asked otherwise: memory lines and curated items (issue 13 §1: one
 * search, one ranking, told apart by kind); R (reference docs) and L0 are opt-in.
 */
export const DEFAULT_LEVELS: readonly QueryLevel[] = ['L1', 'L2', 'I'];
/** Results per query unless asked otherwise. */
export const DEFAULT_LIMIT = 10;
/** The most results one query returns. */
export const MAX_LIMIT = 100;
/** How much of each citation's text a query answer may carry. */
export const CITATION_MODES = [
  'excerpt',
  'full',
  'none',
] as const satisfies readonly CitationMode[];
/**
 * The citations of a query that does not ask, on every surface. Why `excerpt`: an L0 citation
 * is a whole chunk (up to 5,000 tokens) and a memory rests on many, so full texts make a
 * one-result answer hundreds of kilobytes, past what an agent's context should take.
 */
export const DEFAULT_CITATIONS: CitationMode = 'excerpt';

/** Applies the defaults; projects and levels come back sorted and unique. */
export function resolveRequest(request: QueryRequest): ResolvedRequest {
  const levels = request.levels ?? DEFAULT_LEVELS;
  return {
    text: request.text,
    projects: request.projects ? [...new Set(request.projects)].sort() : null,
    levels: RECALL_LEVELS.filter((l) => levels.includes(l)),
    limit: request.limit ?? DEFAULT_LIMIT,
    citations: request.citations ?? DEFAULT_CITATIONS,
    includeSuperseded: request.includeSuperseded ?? false,
    fold: request.fold ?? false,
  };
}
