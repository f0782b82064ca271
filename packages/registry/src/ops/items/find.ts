import { z } from 'zod';
import {
  ATTENTION_TIERS,
  ITEM_STATUSES,
  MemError,
  attentionField,
  itemIdField,
  itemTypeField,
  requireStatusOf,
  tagField,
  type AttentionTier,
} from '@mem/core';
import type {
  CitingRow,
  FoundItemRow,
  ItemFindQuery,
  ItemRow,
  ItemStore,
} from '@mem/projector-sqlite';
import {
  bandWeights,
  keywordTerms,
  matchExpression,
  temporalCue,
  type BandRanking,
} from '@mem/query';
import { bandRanking } from '../query-output.js';
import type { Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { listInput, projectInput } from '../schemas.js';
import { settledItems } from './reachable-store.js';
import { itemView, viewOfRow } from './view.js';
import {
  MAX_FRESHNESS_WARNINGS,
  freshnessView,
  freshnessViewOf,
  freshnessWarning,
  judgeItem,
  warningOf,
  type FreshnessWarning,
  type ItemJudgement,
} from './freshness.js';
import { citingScope, type CitingScope } from './source-check.js';

export const MAX_READ_IDS = 50;
export const MAX_FIND_LIMIT = 200;
/**
 * How many of a keyword query's best matches by BM25 a page is ranked among (issue 13 §5:
 * relevance first, then recency fused in, over this bounded set; the total counts every
 * match). Five full pages of MAX_FIND_LIMIT: a page deeper than that ranks among offset + limit.
 */
export const FIND_CANDIDATES = 1000;
/**
 * The most matches citing a source one find judges (each file re-read). Trigger: a find whose
 * matches cite more. Outcome: INVALID_INPUT asking to narrow it (see the DECISION in findIn).
 */
export const MAX_JUDGED_CITING = 10_000;

export const readItemsInput = z.strictObject({
  ids: z
    .array(itemIdField)
    .min(1, 'expected at least one id')
    .max(MAX_READ_IDS, `expected at most ${MAX_READ_IDS} ids per call`),
  project: projectInput.optional(),
});

const MAX_FIND_PROJECTS = 64;

export const findItemsInput = z.strictObject({
  /** Only these projects: one name, a comma-separated string or a list (as every item op names it). */
  project: listInput(projectInput, 1, MAX_FIND_PROJECTS).optional(),
  /**
   * The older spelling of `project`, still taken; naming both is refused. At least one, as
   * `project`: an empty list (`[]`, `""`) answered nothing, silently, where leaving it out
   * reaches every project (the board, stop 29).
   */
  projects: listInput(projectInput, 1, MAX_FIND_PROJECTS).optional(),
  type: itemTypeField.optional(),
  status: z.enum(ITEM_STATUSES).optional(),
  parent: itemIdField.optional(),
  anchor: itemIdField.optional(),
  tag: tagField.optional(),
  query: z.string().trim().min(1).max(500).optional(),
  include_deleted: z.boolean().optional(),
  /** Archived items too (issue 13 §5: archive leaves default recall). */
  include_archive: z.boolean().optional(),
  /** Only items of this attention tier (archive included when asked by name). */
  attention: attentionField.optional(),
  /** Deliver expired and stale items too (each still named in freshness_warnings). */
  include_stale: z.boolean().optional(),
  limit: z.int().min(1).max(MAX_FIND_LIMIT).optional(),
  offset: z.int().min(0).optional(),
});
type FindInput = z.infer<typeof findItemsInput>;

export const itemsOut = z.object({ items: z.array(itemView) });
/** A found item; under a keyword query, the query's terms it holds (in query order). */
const foundItem = itemView.extend({
  matched_terms: z.array(z.string()).optional(),
  /** The item's verdict at the caller's clock, its cited source re-read (issue 13 §4). */
  freshness: freshnessView,
  attention: z.enum(ATTENTION_TIERS),
  /** Why it stands where it stands: its band, each signal's rank, the pin and the fused score. */
  ranking: bandRanking,
});
export const foundOut = z.object({
  /** Every match in the reachable projects, however many are returned. */
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  truncated: z.boolean(),
  items: z.array(foundItem),
  /**
   * Every match whose freshness is not plain (expired, stale, unknown), held back or delivered:
   * recall never leaves one out silently. Bounded; oldest first.
   */
  freshness_warnings: z.array(freshnessWarning),
  /** Warnings past MAX_FRESHNESS_WARNINGS, counted, not listed (absent: none). */
  freshness_warnings_left_out: z.number().optional(),
});

/** T2: explicit ids, never filtered by status or by the deleted flag. An id out of reach is NOT_FOUND, like an unknown one. */
export async function readItems(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof readItemsInput>,
) {
  return settledItems(ctx, caller, input.project ? [input.project] : undefined, (reach) => {
    // An id is a hash of its project and seq: two projects holding one id is a hand-made log,
    // and the first project in order answers for it, as the per-project fold did.
    const byId = new Map<string, ItemRow>();
    for (const row of reach.items.itemsById(reach.projects, [...new Set(input.ids)]))
      if (!byId.has(row.id)) byId.set(row.id, row);
    return {
      items: input.ids.map((id, i) => {
        const item = byId.get(id);
        if (!item) throw notFound(id, i);
        return viewOfRow(item);
      }),
    };
  });
}

function notFound(id: string, index: number): MemError {
  return new MemError(
    'NOT_FOUND',
    `ids[${index}]: no item ${id} in a project this caller reaches`,
    { field: `ids[${index}]`, id },
  );
}

/**
 * The FTS5 terms of a keyword query: words as FTS5's tokenizer splits them, so `-`, `"`, `*`,
 * `:`, `(` separate and NEAR or AND are words; function words are left out unless nothing else
 * is left. No word at all is INVALID_INPUT: an empty match is not "everything".
 */
function queryTerms(query: string): string[] {
  const { terms } = keywordTerms(query);
  const words = terms.length > 0 ? terms : keywordTerms(query, { keepStopwords: true }).terms;
  if (words.length === 0)
    throw new MemError(
      'INVALID_INPUT',
      `query: expected at least one word, got ${JSON.stringify(query)}`,
      {
        field: 'query',
        expected: 'text with at least one letter or digit',
      },
    );
  return words;
}

/**
 * Filters and a keyword query over the reachable projects' items, inside one SQL statement:
 * an exact total on every page. A keyword query is FTS5 over summary and detail, any of its
 * words (OR), best BM25 first, each item naming the terms it holds. An expired or stale match
 * is held back unless include_stale, and named either way in freshness_warnings, its verdict
 * read against the caller's clock (ctx.recallNow).
 */
export async function findItems(ctx: RegistryContext, caller: Caller, input: FindInput) {
  requireStatusOfType(input);
  const terms = input.query !== undefined ? queryTerms(input.query) : [];
  const now = ctx.recallNow();
  const includeStale = input.include_stale === true;
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  return settledItems(ctx, caller, namedProjects(input), ({ projects, items }) =>
    findIn(ctx, input, { projects, items, terms, now, includeStale, limit, offset }),
  );
}

/**
 * A status filter the type filter cannot hold is refused, as a write refuses it. Trigger: `find
 * --type rule --status open` answered 200 with total 0, as if no such rule existed. Outcome:
 * INVALID_INPUT naming `status` and the type (knowledge has no status; a work type's statuses
 * listed), before anything is read.
 */
function requireStatusOfType(input: FindInput): void {
  if (input.type === undefined || input.status === undefined) return;
  requireStatusOf(input.type, input.status, {}, ' (leave status out)');
}

/** The projects a find names: `project`, or its older spelling `projects`, never both. */
function namedProjects(input: FindInput): string[] | undefined {
  if (input.project !== undefined && input.projects !== undefined)
    throw new MemError('INVALID_INPUT', 'projects: name the projects once, under project', {
      field: 'projects',
    });
  return input.project ?? input.projects;
}

/** One find over one state of the item store (findItems runs it as a settled read). */
async function findIn(
  ctx: RegistryContext,
  input: FindInput,
  {
    projects,
    items,
    terms,
    now,
    includeStale,
    limit,
    offset,
  }: {
    projects: string[];
    items: ItemStore;
    terms: string[];
    now: Date;
    includeStale: boolean;
    limit: number;
    offset: number;
  },
) {
  // Each term one phrase: the query is their OR (matchExpression quotes each).
  const phrases = terms.map((term) => matchExpression([term], 'OR')!);
  const cue = input.query !== undefined ? temporalCue(input.query) : null;
  const weights = bandWeights(cue);
  const query: ItemFindQuery = {
    projects,
    ...(input.type !== undefined ? { type: input.type } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.parent !== undefined ? { parent: input.parent } : {}),
    ...(input.anchor !== undefined ? { anchor: input.anchor } : {}),
    ...(input.tag !== undefined ? { tag: input.tag } : {}),
    phrases,
    includeDeleted: input.include_deleted === true,
    attention: attentionOf(input),
    recencyWeight: weights.recency,
    includeStale,
    now,
    limit,
    offset,
    candidates: FIND_CANDIDATES,
    heldBackLimit: MAX_FRESHNESS_WARNINGS,
  };
  // Every match citing a source is judged as a query judges its recalled items (judgeItem):
  // its cited source re-read, one that changed or cannot be read held back like an expired
  // item, unless include_stale. Trigger: only the page was judged, and its held items taken off
  // the total afterwards: the total moved with the limit and a page came back short or empty
  // (the stop-34 walk). Outcome: the statement leaves them out (heldBySource), so the total and
  // the pages are exact. The clock-bound part of the rule runs inside the statement (the item
  // store's HELD_BACK: core's verdict on the row's dates, in SQL). A query has no such
  // statement (its recall is not paged by freshness): judgeItem is its whole rule.
  const judged = await judgedCiting(items, query, citingScope(ctx.engine.paths));
  const found = items.findItems({
    ...query,
    heldBySource: [...judged.values()].filter(({ held }) => held).map(({ row }) => row),
  });
  // A page row cites a source only if it is among the matches judged above.
  const page = found.items.map((row) => ({ row, source: judged.get(keyOf(row))?.source ?? null }));
  const matched = matchedTermsOf(
    items,
    terms,
    phrases,
    page.map(({ row }) => row),
  );
  // Held back inside the statement by their dates (the first MAX_FRESHNESS_WARNINGS by
  // creation, of heldBackTotal): each named with its source's verdict when it cites one.
  const byDates = found.heldBack.map((row) => ({
    row,
    warning: warningOf(row, now, includeStale, judged.get(keyOf(row))?.source ?? null),
  }));
  // Named for their source alone: the judged matches whose dates would not hold them back.
  const bySourceAlone = [...judged.values()].filter(
    ({ row, warning }) => warning !== null && warningOf(row, now, includeStale) === null,
  );
  // Oldest first: the first MAX_FRESHNESS_WARNINGS of the two, each by creation, are among
  // the first MAX_FRESHNESS_WARNINGS of each.
  const named: { row: ItemOrder; warning: FreshnessWarning }[] = [];
  for (const { row, warning } of [...byDates, ...bySourceAlone])
    if (warning !== null) named.push({ row, warning });
  named.sort((a, b) => byCreation(a.row, b.row));
  const warnings = named.slice(0, MAX_FRESHNESS_WARNINGS).map(({ warning }) => warning);
  const leftOut = found.heldBackTotal + bySourceAlone.length - warnings.length;
  return {
    total: found.total,
    limit,
    offset,
    truncated: offset + found.items.length < found.total,
    items: page.map(({ row, source }) => ({
      ...viewOfRow(row),
      ...(terms.length > 0 ? { matched_terms: matched.get(row.node_id) ?? [] } : {}),
      freshness: freshnessViewOf(row, now, source),
      attention: row.attention,
      ranking: rankingOf(row, cue),
    })),
    freshness_warnings: warnings,
    ...(leftOut > 0 ? { freshness_warnings_left_out: leftOut } : {}),
  };
}

/** What orders warnings: creation, then project and id (the item store's BY_CREATION). */
type ItemOrder = Pick<CitingRow, 'project' | 'id' | 'created_seq'>;

const keyOf = (row: Pick<ItemOrder, 'project' | 'id'>) => `${row.project}\u0000${row.id}`;

function byCreation(a: ItemOrder, b: ItemOrder): number {
  if (a.created_seq !== b.created_seq) return a.created_seq - b.created_seq;
  if (a.project !== b.project) return a.project < b.project ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Each match of `query` citing a source, judged (judgeItem at the query's clock), by
 * project and id. More than `cap` is INVALID_INPUT (MAX_JUDGED_CITING; DECISION: refused rather
 * than estimated: an exact total is the operation's promise, and judging 10 k distinct files
 * costs ~0.5 s CPU a find with their digests kept, ~4 s without).
 */
export async function judgedCiting(
  items: Pick<ItemStore, 'citingMatches'>,
  query: ItemFindQuery,
  scope: CitingScope,
  cap: number = MAX_JUDGED_CITING,
): Promise<Map<string, { row: CitingRow } & ItemJudgement>> {
  const citing = items.citingMatches(query, cap + 1);
  if (citing.length > cap) throw tooManyCiting(cap);
  return new Map(
    await Promise.all(
      citing.map(
        async (row) =>
          [
            keyOf(row),
            { row, ...(await judgeItem(row, query.now, scope, query.includeStale)) },
          ] as const,
      ),
    ),
  );
}

function tooManyCiting(cap: number): MemError {
  return new MemError(
    'INVALID_INPUT',
    `find: more than ${cap} matches cite a source, each re-read to judge its freshness for an exact total: narrow the find (project, type, tag, parent, anchor or a keyword query)`,
    { limit: cap },
  );
}

/**
 * The tiers a find delivers: the one named, else all but archive unless include_archive. Not a
 * query's rule on purpose (the query package's itemRowsOf leaves every archived or deleted item
 * out, with no switch): a find is a listing its caller filters, a query answers from what is in
 * force.
 */
function attentionOf(input: FindInput): readonly AttentionTier[] {
  if (input.attention !== undefined) return [input.attention];
  return input.include_archive === true ? ATTENTION_TIERS : ['active', 'reference'];
}

/** The ranking block of a found item, from the ranks its page's SQL placed it by. */
function rankingOf(row: FoundItemRow, cue: string | null): BandRanking {
  const weights = bandWeights(cue);
  return {
    band: row.band,
    relevance_rank: row.relevance_rank,
    recency_rank: row.recency_rank,
    usage_rank: null,
    pinned: row.pinned,
    temporal_cue: cue,
    weights,
    fused_score_micro: row.fused_score_micro,
  };
}

/** The query's terms each returned item holds (node id → terms, in query order); `phrases` are the terms' MATCH phrases. */
function matchedTermsOf(
  items: ItemStore,
  terms: readonly string[],
  phrases: readonly string[],
  rows: readonly ItemRow[],
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (terms.length === 0) return out;
  const held = items.matchedTermsOfPage(
    phrases,
    rows.map((r) => r.node_id),
  );
  for (const [node, indexes] of held)
    out.set(
      node,
      indexes.map((i) => terms[i]!),
    );
  return out;
}
