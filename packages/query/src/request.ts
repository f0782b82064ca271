import { MemError, assertProjectName } from '@mem/core';
import type { CitationMode } from './citations.js';
import type { RecallLevel } from './ports.js';

/** What an agent asks. */
export interface QueryRequest {
  /** The question, or a pasted error: plain text, never query syntax. */
  text: string;
  /** Only these projects (default: every project the store holds, `_system` aside). */
  projects?: readonly string[];
  /** Only these levels (default L1, L2: R and L0 only when asked for). */
  levels?: readonly RecallLevel[];
  /** At most this many results (default 10, at most MAX_LIMIT). */
  limit?: number;
  /** How much of each citation's text to return (default `full`). */
  citations?: CitationMode;
}

/** A request with every default applied and every field checked. */
export interface ResolvedRequest {
  text: string;
  projects: string[] | null;
  levels: RecallLevel[];
  limit: number;
  citations: CitationMode;
}

/** What a query recalls unless asked otherwise: memories; R (reference docs) is opt-in. */
export const DEFAULT_LEVELS: readonly RecallLevel[] = ['L1', 'L2'];
/** Results per query unless asked otherwise. */
export const DEFAULT_LIMIT = 10;
/** The most results one query returns. */
export const MAX_LIMIT = 100;
const LEVELS: readonly RecallLevel[] = ['L0', 'L1', 'L2', 'R'];
const CITATION_MODES: readonly CitationMode[] = ['full', 'excerpt', 'none'];

/** Checks a request; bad input is INVALID_INPUT (INVALID_PROJECT for a project name) naming the field. */
export function resolveRequest(request: QueryRequest): ResolvedRequest {
  if (typeof request.text !== 'string' || request.text.trim() === '') {
    throw new MemError('INVALID_INPUT', 'query text: expected a non-empty string', { field: 'text' });
  }
  let projects: string[] | null = null;
  if (request.projects !== undefined) {
    if (!Array.isArray(request.projects) || request.projects.length === 0) {
      throw new MemError('INVALID_INPUT', 'projects: expected a non-empty list of project names (omit it for every project)', { field: 'projects' });
    }
    projects = [...new Set(request.projects.map((p) => assertProjectName(p)))].sort();
  }
  let levels = [...DEFAULT_LEVELS];
  if (request.levels !== undefined) {
    const unknown = Array.isArray(request.levels) ? request.levels.filter((l) => !LEVELS.includes(l)) : [request.levels];
    if (!Array.isArray(request.levels) || request.levels.length === 0 || unknown.length > 0) {
      throw new MemError('INVALID_INPUT', `levels: expected a non-empty list of ${LEVELS.join(', ')}${unknown.length > 0 ? `, got ${JSON.stringify(unknown)}` : ''}`, {
        field: 'levels',
        expected: LEVELS,
      });
    }
    levels = LEVELS.filter((l) => request.levels!.includes(l));
  }
  const limit = request.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new MemError('INVALID_INPUT', `limit: expected an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}`, { field: 'limit', expected: [1, MAX_LIMIT] });
  }
  const citations = request.citations ?? 'full';
  if (!CITATION_MODES.includes(citations)) {
    throw new MemError('INVALID_INPUT', `citations: expected one of ${CITATION_MODES.join(', ')}, got ${JSON.stringify(citations)}`, { field: 'citations', expected: CITATION_MODES });
  }
  return { text: request.text, projects, levels, limit, citations };
}
