import type Database from 'better-sqlite3';
import { registerFtsText } from './fts-text.js';
import { OPEN_MAX_DAYS, type FromLine } from '@mem/core';
import type {
  CitingRow,
  DueReminderRow,
  ItemActivityRow,
  ItemCountRow,
  ItemFindQuery,
  ItemFound,
  ItemHistoryRow,
  ItemRow,
  ItemTagCountRow,
  ItemTypeCountRow,
  KnowledgeRow,
} from './item-rows.js';
import { itemScopeMatch, parentScopeMatch, universalScope } from './item-fts.js';
import { TOKENIZE } from './keyword-statistics.js';
import {
  FLOOR_SCORED,
  KEYWORD_BUDGET,
  boundedCandidates,
  floorCandidates,
  floorRankedCandidates,
  ftsRowCount,
  rankedCandidates,
  splitAtFloor,
  type FloorSplit,
  type KeywordCandidate,
  type PhraseFloor,
} from './keyword-candidates.js';

/** What every item read selects: the row, its tags and relations as sorted JSON arrays. */
const ITEM_COLUMNS = `i.project, i.id, i.node_id, i.type, i.status, i.summary, i.detail, i.due, i.remind_at, i.valid_until,
  i.review_after, i.source_uri, i.source_sha256, i.from_line, i.deleted_at IS NOT NULL AS deleted, i.attention, i.pinned, i.created_seq, i.created_ts, i.opened_ts, i.updated_seq, i.updated_ts,
  (SELECT json_group_array(tag) FROM (SELECT t.tag FROM item_tag t WHERE t.project = i.project AND t.id = i.id ORDER BY t.tag)) AS tags,
  i.parent,
  ${relation('anchor')} AS anchors, ${relation('blocked_by')} AS blocked_by, ${relation('link')} AS links`;

function relation(kind: string): string {
  return `(SELECT json_group_array(parent_sha) FROM (SELECT e.parent_sha FROM edge e WHERE e.project = i.project
    AND e.child_level = 'I' AND e.child_sha = i.id AND e.parent_level = 'I' AND e.kind = '${kind}' ORDER BY e.parent_sha))`;
}

const IN_PROJECTS = `i.project IN (SELECT value FROM json_each(@projects))`;
const LIVE = `i.deleted_at IS NULL`;
const UNRESOLVED = `(i.status IS NULL OR i.status NOT IN ('done', 'dropped'))`;
/** Not filed away: T0 never shows an archived item (migration 0019's partial indexes say the same). */
const UNARCHIVED = `i.attention <> 'archive'`;
/** An open thread: item_open_thread's WHERE, repeated so the partial index applies. */
const OPEN_THREAD = `i.type = 'thread' AND ${LIVE} AND ${UNRESOLVED} AND ${UNARCHIVED}`;
const hasEdge = (kind: string, target: string) =>
  `EXISTS (SELECT 1 FROM edge e WHERE e.project = i.project AND e.child_level = 'I' AND e.child_sha = i.id
    AND e.parent_level = 'I' AND e.kind = '${kind}' AND e.parent_sha = ${target})`;
/** Due reminders: item_due_reminder's rows (its WHERE repeated, so the partial index applies) up to a horizon. */
const DUE_REMINDER_OF = `i.type = 'reminder' AND ${LIVE} AND ${UNRESOLVED} AND ${UNARCHIVED}
  AND i.remind_at <= @horizon`;
const DUE_REMINDER = `${IN_PROJECTS} AND ${DUE_REMINDER_OF}`;
/**
 * Whether the ISO instant in `column` is at or before the cutoff @{cut}_ms, read as Date.parse
 * reads it (registered as mem_ms). Trigger: find's totals judge every match. Why: a JavaScript
 * call per row was ~40 % of a count over 32 k matches. Outcome: the instant's first 19
 * characters (to the second) decide by text against the cutoff's — the log's and the items'
 * instants are ISO-8601 UTC with a four-digit year (core's isoTimeField and the envelope's ts),
 * so text order there is time order — and only an instant in the cutoff's own second is parsed.
 */
const atOrBefore = (column: string, cut: string) =>
  `(CASE WHEN substr(${column}, 1, 19) < @${cut}_second THEN 1
    WHEN substr(${column}, 1, 19) > @${cut}_second THEN 0
    ELSE mem_ms(${column}) <= @${cut}_ms END)`;

/**
 * Held back by freshness at the caller's clock: its TTL has passed, its review date has passed
 * (knowledge only, which is never open), or it is an unresolved task or thread open since it
 * last became open (opened_ts, migration 0027) for OPEN_MAX_DAYS or more. This is core's
 * heldBack(freshnessOf(...)) over the inputs a row holds, with the same parse (Date.parse) so a
 * boundary instant agrees. A cited source is re-read by the caller, not here: it judges every
 * citing match first (citingMatches) and names the held ones (HELD_BY_SOURCE). Its parameters:
 * heldBackParams.
 */
const HELD_BACK = `((i.valid_until IS NOT NULL AND ${atOrBefore('i.valid_until', 'now')})
  OR (i.review_after IS NOT NULL AND ${atOrBefore('i.review_after', 'now')})
  OR (i.type IN ('task', 'thread') AND ${UNRESOLVED} AND ${atOrBefore('i.opened_ts', 'opened')}))`;

/** HELD_BACK's cutoffs at `now`: the clock itself, and OPEN_MAX_DAYS before it (open since). */
interface HeldBackParams {
  now_ms: number;
  now_second: string;
  opened_ms: number;
  opened_second: string;
}

function heldBackParams(now: Date): HeldBackParams {
  const opened = now.getTime() - OPEN_MAX_DAYS * 86_400_000;
  const second = (ms: number) => new Date(ms).toISOString().slice(0, 19);
  return {
    now_ms: now.getTime(),
    now_second: second(now.getTime()),
    opened_ms: opened,
    opened_second: second(opened),
  };
}

/**
 * Held back by its cited source: the node of one of the find's heldBySource pairs
 * (@held_by_source_nodes, heldBySourceNodes), which its caller judged (citingMatches). By node
 * id, a scalar: a row value `(i.project, i.id) IN (SELECT … FROM json_each(…))` was planned as
 * a list scanned per row (75 s over 100 k rows and 5 k pairs; by node id, 88 ms). Only in a
 * statement whose find names any: a find with none plans as before.
 */
const HELD_BY_SOURCE = `i.node_id IN (SELECT value FROM json_each(@held_by_source_nodes))`;

/**
 * The @held_by_source pairs (a JSON list of [project, id]) and their items' node ids, of a find
 * that holds any match back by its source and delivers none held; else null. An item's node id
 * is its own (itemNodeId).
 */
function heldBySourceNodes(
  prepared: Prepare,
  query: ItemFindQuery,
): { held_by_source: string; held_by_source_nodes: string } | null {
  const held = query.heldBySource ?? [];
  if (query.includeStale || held.length === 0) return null;
  const pairs = JSON.stringify(held.map(({ project, id }) => [project, id]));
  const nodes = prepared(`SELECT i.node_id FROM json_each(@pairs) h
      CROSS JOIN item i ON i.project = h.value ->> 0 AND i.id = h.value ->> 1`)
    .pluck()
    .all({ pairs }) as number[];
  return { held_by_source: pairs, held_by_source_nodes: idsJson(nodes) };
}

interface RawItem extends Omit<
  ItemRow,
  'deleted' | 'pinned' | 'tags' | 'anchors' | 'blocked_by' | 'links' | 'from_line'
> {
  from_line: string | null;
  deleted: number;
  pinned: number;
  tags: string;
  anchors: string;
  blocked_by: string;
  links: string;
}

const toItem = (raw: RawItem): ItemRow => ({
  ...raw,
  deleted: raw.deleted === 1,
  pinned: raw.pinned === 1,
  from_line: raw.from_line === null ? null : (JSON.parse(raw.from_line) as FromLine),
  tags: JSON.parse(raw.tags) as string[],
  anchors: JSON.parse(raw.anchors) as string[],
  blocked_by: JSON.parse(raw.blocked_by) as string[],
  links: JSON.parse(raw.links) as string[],
});

/**
 * The roots given, each with its last activity (the latest write to it or to a live item
 * under it, by ts then seq) and its unresolved live descendants: what a slim entry shows. Both
 * are kept on the row by the writes (orient-triggers.ts), so a root costs one row, however
 * large its tree.
 */
function activitySql(roots: string): string {
  // CROSS JOIN: the roots drive, one primary-key lookup each (joined plainly, SQLite scanned
  // every item of the project and probed the roots).
  return `WITH roots(project, id) AS (${roots})
  SELECT r.project, r.id, r.type, r.status, r.summary, r.remind_at, r.created_ts, r.opened_ts, r.tree_activity AS activity, r.tree_open AS open_count
  FROM roots CROSS JOIN item r ON r.project = roots.project AND r.id = roots.id
  ORDER BY r.project, r.created_seq, r.id`;
}

interface RawActivity extends Omit<ItemActivityRow, 'activity_ts' | 'activity_seq'> {
  activity: string;
}

const toActivity = ({ activity, ...raw }: RawActivity): ItemActivityRow => {
  const cut = activity.lastIndexOf('\u001f');
  return {
    ...raw,
    activity_ts: activity.slice(0, cut),
    activity_seq: Number(activity.slice(cut + 1)),
  };
};

interface RawRanks {
  relevance_rank: number;
  recency_rank: number;
  band: number;
  fused_score_micro: number;
}

const ranksOf = (raw: RawRanks) => ({
  relevance_rank: raw.relevance_rank,
  recency_rank: raw.recency_rank,
  band: raw.band,
  fused_score_micro: raw.fused_score_micro,
});

/**
 * One page of find's delivered matches in the band order of packages/query band-order.ts
 * (issue 13 §5), in SQL so LIMIT/OFFSET pages it: relevance is RRF of the BM25 rank (equal
 * scores share a rank, every row ranks 1 without a match) in millionths, its band that over
 * 100 (BAND_MICRO); inside a band pins first, then the fused score, relevance plus weighted
 * recency (updated_seq, newest 1), then relevance and creation. Usage is not recorded, so it
 * adds nothing. The ranks are among the ranked set: every delivered match without a keyword
 * query, the candidates (keywordCandidatesSql) with one.
 */
function rankedPageSql(ranked: string, relevance: string): string {
  return `${ranked}SELECT ${ITEM_COLUMNS}, page.relevance_rank, page.recency_rank, page.band, page.fused_score_micro FROM (
      SELECT project, id, relevance_rank, recency_rank, created_seq, pinned,
        relevance_micro / 100 AS band,
        relevance_micro + CAST(round(@recency_weight * 1000000.0 / (60 + recency_rank)) AS INTEGER) AS fused_score_micro
      FROM (
        SELECT r.project, r.id, r.created_seq, r.pinned, ${relevance} AS relevance_rank,
          rank() OVER (ORDER BY r.updated_seq DESC) AS recency_rank,
          CAST(round(1000000.0 / (60 + ${relevance})) AS INTEGER) AS relevance_micro
        FROM ranked r)
      ORDER BY band DESC, pinned DESC, fused_score_micro DESC, relevance_rank, created_seq, project, id
      LIMIT @limit OFFSET @offset) page
    JOIN item i ON i.project = page.project AND i.id = page.id
    ORDER BY page.band DESC, page.pinned DESC, page.fused_score_micro DESC, page.relevance_rank, page.created_seq, page.project, page.id`;
}

/**
 * A keyword find's ranked set: the best @candidates delivered matches by BM25 (FTS5's `rank`,
 * bm25 with no weights), read in that order and cut there. Trigger: a query matching most of a
 * large project ("theme loader" over 100 k items). Why: ranking every match (two window
 * functions and the page sort over all of them, and each match joined to its item) cost
 * seconds, and a page never needs a match more than @candidates places down by relevance.
 * Outcome: FTS5 scores and sorts the hits itself (ORDER BY rank is consumed by its index, no
 * temporary B-tree), the join stops at the candidate cap, and the window functions see at most
 * that many rows. Relevance first still holds: every match left out scores no better than the
 * last candidate. What moves: the recency rank is among the candidates, not among every match
 * (equal when the matches fit the cap); among matches tied with the last candidate, FTS5's
 * order decides which are in: rowid order (rankedCandidates orders them so). The total still counts every match.
 */
function keywordCandidatesSql(where: string): string {
  return `WITH ranked AS MATERIALIZED (SELECT i.project, i.id, i.created_seq, i.pinned, i.updated_seq, f.rank AS score
    FROM node_fts f CROSS JOIN item i ON i.node_id = f.rowid
    WHERE node_fts MATCH @match AND ${where}
    ORDER BY f.rank LIMIT @candidates) `;
}

/**
 * A keyword find's ranked set when boundedCandidates proved it: @candidates, a JSON array of
 * [node id, relevance rank], each joined to its item (by rowid). The ranks are the ones
 * keywordCandidatesSql's rank() gives the same rows.
 */
const BOUNDED_CANDIDATES = `WITH ranked AS MATERIALIZED (SELECT i.project, i.id, i.created_seq, i.pinned, i.updated_seq, c.value ->> 1 AS relevance
    FROM json_each(@candidates) c CROSS JOIN item i ON i.node_id = c.value ->> 0) `;

/**
 * Every live descendant of one item, depth first, children by creation (what resolve's plan and
 * delete's cascade walk): each step one item_by_parent range (migration 0034), so
 * the cost follows the subtree, never the project. A path of ids stops a cycle a hand-made log
 * could hold (the operations refuse one) from recursing forever.
 */
const DESCENDANTS_SQL = `WITH RECURSIVE tree(project, id, path, ids) AS (
    SELECT @project, @id, '', '/' || @id || '/'
    UNION ALL
    SELECT c.project, c.id, tree.path || printf('%016d', c.created_seq) || '/', tree.ids || c.id || '/'
    FROM tree JOIN item c INDEXED BY item_by_parent ON c.project = tree.project AND c.parent = tree.id
      AND c.deleted_at IS NULL
    WHERE instr(tree.ids, '/' || c.id || '/') = 0)
  SELECT ${ITEM_COLUMNS} FROM tree CROSS JOIN item i ON i.project = tree.project AND i.id = tree.id
  WHERE tree.path <> '' ORDER BY tree.path`;

/**
 * The index a find without a keyword query is driven by: a tag's rows (item_tag_by_tag), a
 * parent's children (item_by_parent, INDEXED BY: without statistics SQLite prefers the primary
 * key's project range) or an anchor's edges (edge_by_parent), each row then one item lookup.
 * Trigger: a tag, parent or anchor filter. Why: written as an EXISTS per item, SQLite read every item of the
 * project (100 k rows for the 250 a tag holds) and probed the filter for each. Outcome: the
 * statement reads the rows the filter holds, whatever the project's size; a type or status
 * filter alone still reads the project's items of that type (item_by_type).
 */
function structuralDriver(
  query: ItemFindQuery,
): { field: keyof ItemFindQuery; from: string; where: string } | null {
  const projects = `(SELECT value FROM json_each(@projects))`;
  if (query.tag !== undefined)
    return {
      field: 'tag',
      from: 'FROM item_tag dt CROSS JOIN item i ON i.project = dt.project AND i.id = dt.id',
      where: `dt.project IN ${projects} AND dt.tag = @tag`,
    };
  if (query.parent !== undefined)
    return {
      field: 'parent',
      from: 'FROM item i INDEXED BY item_by_parent',
      where: `i.project IN ${projects} AND i.parent = @parent`,
    };
  if (query.anchor !== undefined)
    return {
      field: 'anchor',
      from: 'FROM edge de CROSS JOIN item i ON i.project = de.project AND i.id = de.child_sha',
      where: `de.project IN ${projects} AND de.parent_sha = @anchor AND de.parent_level = 'I'
          AND de.kind = 'anchor' AND de.child_level = 'I'`,
    };
  return null;
}

/**
 * item_fts's MATCH for the items a parent filter drives when item_fts holds every filter of the
 * find (no anchor; a tag drives instead), else null. Trigger: a keyword find over a parent's
 * 12 k children read each child's item row by edge to learn its node id (~19 ms CPU). Outcome:
 * the children are the postings of the parent's scope token (item-fts.ts) ANDed with the find's
 * scope (~4 ms); the answers are the same rows.
 */
function parentDriven(prepared: Prepare, query: ItemFindQuery): string | null {
  if (query.parent === undefined || query.anchor !== undefined || query.tag !== undefined)
    return null;
  // A token spells lowercase letters, digits, '.', '_' and '-' only (item ids are 'it-' and
  // hex; the boundary checks them; FTS5 folds case, so 'IT-…' would read it-…'s children): any
  // other parent is walked by item_by_parent, never written into a MATCH.
  if (!/^[a-z0-9._-]+$/.test(query.parent)) return null;
  const filter = scopeFilter(query);
  if (filter.projects.length === 0 || filter.attention.length === 0) return null;
  return parentScopeMatch(query.parent, filter, universalScope(prepared, filter));
}

/** The part of a find item_fts's scope holds: projects, liveness, tiers, type and status. */
function scopeFilter(query: ItemFindQuery) {
  return {
    projects: query.projects,
    live: !query.includeDeleted,
    attention: query.attention,
    ...(query.type !== undefined ? { type: query.type } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
  };
}

/**
 * The totals and the held-back list (by creation) of a keyword query its scope does not
 * cover (a tag, parent or anchor filter) join its FTS5 hits, unscored. Trigger: a subquery on
 * the right of the join. Why: SQLite ran the MATCH again per item row (2,000 items, 5 s).
 * Outcome: the hits are materialised once and drive the join (item's rowid). Only the page's
 * statement scores (keywordCandidatesSql), so BM25 runs once per match, not once per statement.
 */
const HITS = `WITH hits AS MATERIALIZED (SELECT rowid FROM node_fts WHERE node_fts MATCH @match) `;
const HITS_FROM = 'FROM hits f CROSS JOIN item i ON i.node_id = f.rowid';

/**
 * item_fts's MATCH for a keyword find (item-fts.ts): a text (an FTS5 expression over node_fts's
 * column) within the find's projects, liveness, tiers, type and status. Null when a filter
 * item_fts does not hold (tag, parent, anchor) is given, or the scope is empty: the hits are
 * then joined to their items.
 */
function scopedMatch(
  prepared: (sql: string) => Database.Statement,
  query: ItemFindQuery,
): ((text: string) => string) | null {
  if (query.tag !== undefined || query.parent !== undefined || query.anchor !== undefined)
    return null;
  const filter = scopeFilter(query);
  if (filter.projects.length === 0 || filter.attention.length === 0) return null;
  const universal = universalScope(prepared, filter);
  return (text) => itemScopeMatch(text, filter, universal)!;
}

/**
 * The rows of a find's projects that freshness may hold back at `now` (an expiry or a review
 * date at or before its second, an unresolved task or thread opened at or before the open
 * cutoff's), each read from its partial index (migrations 0025, 0027) and kept when `where`
 * (conditions on `i`) holds: a keyword find's adds that item_fts matches it by rowid
 * (@scope). Trigger: a find's exact total less what it holds back. Why: judged on every match,
 * the held-back count read each match's item row (a parent's 14 k children: ~44 ms of HELD_BACK
 * over rows whose dates sit past their text). Outcome: the count costs the rows that can be
 * held, whatever the number of matches; HELD_BACK still decides. A bound is the cutoff's second
 * followed by U+10FFFF: every instant whose first 19 characters are at or before the second
 * sorts below it (atOrBefore reads those characters).
 */
function heldCandidates(where: readonly string[], held: HeldBackParams): FindMatches {
  return {
    with: `WITH held(project, id) AS (${HELD_RANGES.join(' UNION ')}) `,
    from: `FROM held CROSS JOIN item i ON i.project = held.project AND i.id = held.id
      WHERE ${where.join(' AND ')}`,
    params: heldBounds(held),
  };
}

/** The three index ranges heldCandidates reads (each row's project and id), over @projects and heldBounds. */
const HELD_RANGES = [
  `SELECT c.project, c.id FROM item c INDEXED BY item_expiring
    WHERE c.project IN (SELECT value FROM json_each(@projects)) AND c.valid_until IS NOT NULL AND c.valid_until < @now_bound`,
  `SELECT c.project, c.id FROM item c INDEXED BY item_review_due
    WHERE c.project IN (SELECT value FROM json_each(@projects)) AND c.review_after IS NOT NULL AND c.review_after < @now_bound`,
  `SELECT c.project, c.id FROM item c INDEXED BY item_open_work
    WHERE c.project IN (SELECT value FROM json_each(@projects)) AND c.type IN ('task', 'thread')
      AND (c.status IS NULL OR c.status NOT IN ('done', 'dropped')) AND c.opened_ts < @opened_bound`,
];

const heldBounds = ({ now_second, opened_second }: HeldBackParams) => ({
  now_bound: `${now_second}\u{10FFFF}`,
  opened_bound: `${opened_second}\u{10FFFF}`,
});

type Prepare = (sql: string) => Database.Statement;

/** Phrases whose floor split a read-only reader keeps (itemReader). */
const CACHED_PHRASES = 4_096;

/** What every strategy of a find reads: the query and the statement parts its filters make. */
interface FindFrame {
  prepared: Prepare;
  query: ItemFindQuery;
  /** The conditions on `i` every delivered match meets (the driver's own first when there is one). */
  where: string[];
  /** The same conditions on `i` alone: the driver's filter as a condition too. */
  itemWhere: string[];
  /** The filters' items: the driver (or `item i`) with `where`. */
  from: string;
  /** The node ids of `from`'s items (a statement; parentDriven's when it applies). */
  drivenIds: string;
  /** drivenIds' rows, each node id once: itself, or parentDriven's item_fts rowids as they come (unique, ascending). */
  drivenOnce: string;
  params: Record<string, unknown>;
  held: HeldBackParams;
  /** HELD_BACK negated, or '1' when held-back matches are delivered too. */
  delivered: string;
  /** How many candidates a keyword find ranks (at least offset + limit). */
  k: number;
  keywordBudget: number;
  floorScored: number;
  /** What splitAtFloor learnt of each phrase since the store last changed (itemReader's). */
  phraseFloors: Map<string, PhraseFloor>;
  /** item_fts counts (by MATCH) since the store last changed (itemReader's; scopedTotal). */
  scopeTotals: Map<string, number>;
  /** Common phrases' node_fts rowids, ascending, since the store last changed (itemReader's; commonHolders). */
  phraseRows: Map<string, Float64Array>;
  /** How many finds asked for each common phrase not kept yet, since the store last changed (commonHolders). */
  phraseSightings: Map<string, number>;
  /** A parent's children (drivenOnce's rows, ascending) by parent_scope, since the store last changed (drivenRows). */
  parentRows: Map<string, Float64Array>;
  /** Postings FTS5 walks in the time it looks one phrase up in one row (PROBE_POSTINGS). */
  probePostings: number;
}

/** A keyword find's frame: its phrases and their OR. */
interface KeywordFrame extends FindFrame {
  phrases: readonly string[];
  match: string;
}

/** The rows a find's held-back list and held count read: a CTE, its FROM … WHERE, their params. */
interface FindMatches {
  with: string;
  from: string;
  params: Record<string, unknown>;
}

/** What a strategy answers: the totals, the page's ranked set and the held-back list. */
interface FindPlan {
  counts: { matched: number; held: number };
  /** The page's ranked set (rankedPageSql's CTE), its relevance expression and parameters. */
  ranked: { sql: string; relevance: string; params: Record<string, unknown> };
  /** The first `limit` held-back matches, by creation (read only when counts.held > 0). */
  heldBack: (limit: number) => RawItem[];
}

const BY_CREATION = 'ORDER BY i.created_seq, i.project, i.id';

/**
 * The statement parts of `query`'s filters. Each filter given adds its condition and its
 * parameter; one not given adds neither, so the statement a filter set makes is the one SQLite
 * plans (and caches) for it. A tag, parent or anchor filter drives the find (structuralDriver),
 * with a keyword query too unless the reference ranking is asked (keywordBudget 0).
 */
function findFrame(
  prepared: Prepare,
  query: ItemFindQuery,
  match: string | undefined,
  settings: Pick<
    FindFrame,
    | 'keywordBudget'
    | 'floorScored'
    | 'phraseFloors'
    | 'scopeTotals'
    | 'phraseRows'
    | 'phraseSightings'
    | 'parentRows'
    | 'probePostings'
  >,
): FindFrame & { driver: ReturnType<typeof structuralDriver> } {
  const where = [IN_PROJECTS];
  const held = heldBackParams(query.now);
  const params: Record<string, unknown> = { projects: JSON.stringify(query.projects), ...held };
  if (!query.includeDeleted) where.push(LIVE);
  where.push('i.attention IN (SELECT value FROM json_each(@attention))');
  params.attention = JSON.stringify(query.attention);
  const conditions: [keyof ItemFindQuery, string][] = [
    ['type', 'i.type = @type'],
    ['status', 'i.status = @status'],
    ['parent', 'i.parent = @parent'],
    ['anchor', hasEdge('anchor', '@anchor')],
    [
      'tag',
      'EXISTS (SELECT 1 FROM item_tag t WHERE t.project = i.project AND t.id = i.id AND t.tag = @tag)',
    ],
  ];
  const driver = match === undefined || settings.keywordBudget > 0 ? structuralDriver(query) : null;
  const itemWhere = [...where];
  if (driver) where.unshift(driver.where);
  for (const [field, condition] of conditions) {
    if (query[field] === undefined) continue;
    // The driving filter is the join itself: checked again per item it would cost a lookup.
    if (field !== driver?.field) where.push(condition);
    itemWhere.push(condition);
    params[field] = query[field];
  }
  if (match !== undefined) params.match = match;
  const bySource = heldBySourceNodes(prepared, query);
  if (bySource !== null) Object.assign(params, bySource);
  const parentScope = driver && match !== undefined ? parentDriven(prepared, query) : null;
  if (parentScope !== null) params.parent_scope = parentScope;
  return {
    prepared,
    query,
    where,
    itemWhere,
    from: `${driver?.from ?? 'FROM item i'} WHERE ${where.join(' AND ')}`,
    ...drivenStatements(parentScope !== null, driver?.from, where),
    params,
    held,
    delivered: query.includeStale
      ? '1'
      : bySource !== null
        ? `NOT ${HELD_BACK} AND NOT ${HELD_BY_SOURCE}`
        : `NOT ${HELD_BACK}`,
    k: Math.max(query.candidates, query.offset + query.limit),
    ...settings,
    driver,
  };
}

/**
 * The node ids of a find's driven items (drivenIds), and the same once each (drivenOnce).
 * Trigger: a parent's 12 k children, read as DISTINCT rows of its scope token's postings, sorted
 * into a temporary B-tree only to drop duplicates that cannot occur (~1.5 ms of ~20). Outcome:
 * item_fts's rowids are node ids, one row each, and FTS5 yields them ascending, so the parent's
 * are read as they come; a driver's join keeps its DISTINCT.
 */
function drivenStatements(
  byParentScope: boolean,
  from: string | undefined,
  where: readonly string[],
): Pick<FindFrame, 'drivenIds' | 'drivenOnce'> {
  if (byParentScope) {
    const ids = 'SELECT rowid AS node_id FROM item_fts WHERE item_fts MATCH @parent_scope';
    return { drivenIds: ids, drivenOnce: ids };
  }
  const ids = `SELECT i.node_id ${from ?? 'FROM item i'} WHERE ${where.join(' AND ')}`;
  return { drivenIds: ids, drivenOnce: `SELECT DISTINCT node_id FROM (${ids})` };
}

/**
 * A find's strategy, by its query: without a keyword query the filters' rows (filterFind); with
 * one and a tag, parent or anchor driver, the driver's matches (drivenFind); with one whose
 * filters item_fts holds, the total counted there (scopedFind); else, in the reference ranking
 * with a tag, parent or anchor, the hits joined to their items (joinedFind).
 */
function choosePlan(frame: ReturnType<typeof findFrame>): FindPlan {
  const { query, driver } = frame;
  const phrases = query.phrases ?? [];
  if (phrases.length === 0) return filterFind(frame);
  const keyword: KeywordFrame = { ...frame, phrases, match: phrases.join(' OR ') };
  if (driver !== null) return drivenFind(keyword);
  const scope = scopedMatch(frame.prepared, query);
  if (scope !== null) return scopedFind(keyword, scope);
  return joinedFind(keyword);
}

/** The held-back list of `matches`, by creation, each row read with its tags and relations. */
const heldBackOf =
  ({ prepared, params }: FindFrame, matches: FindMatches) =>
  (limit: number): RawItem[] =>
    prepared(`${matches.with}SELECT ${ITEM_COLUMNS} FROM (
      SELECT i.project, i.id ${matches.from} AND ${HELD_BACK} ${BY_CREATION} LIMIT @limit) page
    JOIN item i ON i.project = page.project AND i.id = page.id ${BY_CREATION}`).all({
      ...params,
      ...matches.params,
      limit,
    }) as RawItem[];

/** A find's citing rows a keyword find matches by a probe each; past it, by one walk of its phrases (citingMatches). */
const CITING_PROBES = 64;

/** A citing row without the node id it was matched by. */
const citingRow = ({ node_id: _node, ...row }: CitingRow & { node_id: number }): CitingRow => row;

/**
 * How many of the matches a find holds back by their cited source (HELD_BY_SOURCE) its dates do
 * not hold back already (HELD_BACK counts those): what the total leaves out besides. Each pair
 * is one of the find's matches (its caller read them from citingMatches), so they are not
 * matched again here.
 */
function heldBySourceAlone(frame: FindFrame): number {
  const bySource = frame.params.held_by_source;
  if (bySource === undefined) return 0;
  return frame
    .prepared(
      `SELECT count(*) FROM (SELECT DISTINCT value ->> 0 AS project, value ->> 1 AS id FROM json_each(@held_by_source)) h
        CROSS JOIN item i ON i.project = h.project AND i.id = h.id WHERE NOT ${HELD_BACK}`,
    )
    .pluck()
    .get({ ...frame.held, held_by_source: bySource }) as number;
}

/** A find without a keyword query: the filters' rows (read from their driver), every one relevance 1. */
function filterFind(frame: FindFrame): FindPlan {
  const { prepared, from, params, delivered } = frame;
  return {
    counts: prepared(
      `SELECT count(*) AS matched, coalesce(sum(${HELD_BACK}), 0) AS held ${from}`,
    ).get(params) as { matched: number; held: number },
    ranked: {
      sql: `WITH ranked AS MATERIALIZED (SELECT i.project, i.id, i.created_seq, i.pinned, i.updated_seq ${from} AND ${delivered}) `,
      relevance: '1',
      params: {},
    },
    heldBack: heldBackOf(frame, { with: '', from, params: {} }),
  };
}

/** A ranked set of proven candidates (BOUNDED_CANDIDATES). */
const boundedRanked = (candidates: readonly KeywordCandidate[]): FindPlan['ranked'] => ({
  sql: BOUNDED_CANDIDATES,
  relevance: 'r.relevance',
  params: { candidates: JSON.stringify(candidates.map((c) => [c.node_id, c.relevance])) },
});

/**
 * A keyword find a tag, parent or anchor filter drives: totals, held-back list and candidates
 * from the driver's matches (drivenMatches) less the held ones among them (heldCandidates),
 * ranked by FTS5's scores, or under a floor phrase by the above-floor phrases'
 * (drivenFloorCandidates).
 */
function drivenFind(frame: KeywordFrame): FindPlan {
  const { prepared, query, phrases, k } = frame;
  const split = frameSplit(frame);
  const holders = split !== null ? commonHolders(frame, split) : null;
  const { matches, aboveHolders } =
    split !== null && holders !== null
      ? heldMatches(frame, split, holders)
      : {
          matches:
            split !== null && fewDriven(frame, split)
              ? probedMatches(prepared, frame.drivenOnce, frame.params)
              : drivenMatches(prepared, frame.drivenIds, frame.params, split === null),
          aboveHolders: undefined,
        };
  const held = heldAmong(frame, matches.ids);
  const delivered = query.includeStale ? NONE_HELD : withHeldBySource(frame, matches.ids, held);
  const ranked = split
    ? drivenFloorCandidates(
        prepared,
        deliveredIds(matches.ids, delivered),
        matches.ascending,
        split.above.map((i) => phrases[i]!),
        k,
        aboveHolders,
      )
    : rankedCandidates(scoredDelivered(matches, delivered), k);
  return {
    counts: { matched: matches.ids.length, held: held.length },
    ranked: boundedRanked(ranked),
    heldBack: (limit) =>
      prepared(`SELECT ${ITEM_COLUMNS} FROM item i
        WHERE i.node_id IN (SELECT value FROM json_each(@ids)) ${BY_CREATION} LIMIT @limit`).all({
        ids: JSON.stringify(held),
        limit,
      }) as RawItem[],
  };
}

/**
 * A driven find's matches: their node ids (each once), and each one's FTS5 score at the same
 * index when scored. Trigger: a parent's 16 k matches were an object each ({node_id, score}),
 * with sets and JSON lists of them: ~1.4 MB of garbage a find, a major GC about every 45 finds
 * (20–75 ms each) through the registry. Outcome: plain number arrays, walked in step.
 */
interface DrivenMatches {
  ids: Float64Array;
  scores: ArrayLike<number> | null;
  /** Whether the ids ascend (a parent's always do). */
  ascending: boolean;
}

const NONE_HELD: readonly number[] = [];

/** A JSON list of node ids (what JSON.stringify writes of a number array; typed arrays too). */
const idsJson = (ids: Float64Array | readonly number[]): string => `[${ids.join(',')}]`;

/**
 * `ids` less `held` (a subsequence of them, in their order: heldAmong), walked in step; `ids`
 * themselves when none is held.
 */
function deliveredIds(ids: Float64Array, held: readonly number[]): Float64Array {
  if (held.length === 0) return ids;
  const out = new Float64Array(ids.length - held.length);
  let next = 0;
  for (let i = 0; i < ids.length; i += 1) {
    if (ids[i] === held[next]) next += 1;
    else out[i - next] = ids[i]!;
  }
  return out;
}

/** The scored matches less `held` (as deliveredIds), as rankedCandidates takes them. */
function scoredDelivered(
  { ids, scores }: DrivenMatches,
  held: readonly number[],
): { node_id: number; score: number }[] {
  const out: { node_id: number; score: number }[] = [];
  let next = 0;
  for (let i = 0; i < ids.length; i += 1) {
    if (next < held.length && ids[i] === held[next]) next += 1;
    else out.push({ node_id: ids[i]!, score: scores?.[i] ?? 0 });
  }
  return out;
}

/**
 * Which of a driven find's matches `ids` freshness holds back, in their order: read from the
 * rows that can be held (heldCandidates) when the project has no more of them than there are
 * matches, else each match's item judged by node id (item's rowid). Trigger: an anchor's 50
 * matches in a project of 20,000 expired facts read all 20,000 to keep the few among the 50.
 * Why: the held rows were read whatever the matches. Outcome: the cost follows the smaller of the two:
 * the three ranges are counted to one past the matches' number first (index entries only), so
 * the choice reads at most three times as many entries as there are matches.
 */
function heldAmong(frame: KeywordFrame, ids: Float64Array): number[] {
  const { prepared, params } = frame;
  const bounds = heldBounds(frame.held);
  const most = ids.length;
  const { n } = prepared(
    `SELECT ${HELD_RANGES.map((range) => `(SELECT count(*) FROM (${range} LIMIT @most))`).join(' + ')} AS n`,
  ).get({ projects: params.projects, ...bounds, most: most + 1 }) as { n: number };
  if (n > most) {
    // CROSS JOIN: json_each drives, so the held come in the matches' order, a node's items
    // together: each node is kept once, as the matches hold it.
    const held =
      prepared(`SELECT i.node_id FROM json_each(@ids) m CROSS JOIN item i ON i.node_id = m.value
        WHERE ${HELD_BACK}`)
        .pluck()
        .all({ ...frame.held, ids: idsJson(ids) }) as number[];
    let kept = 0;
    for (const id of held) if (kept === 0 || held[kept - 1] !== id) held[kept++] = id;
    held.length = kept;
    return held;
  }
  const candidates = heldCandidates([...frame.itemWhere, HELD_BACK], frame.held);
  // At most as many as the matches (n ≤ most): the matches are looked up in them, not the
  // other way round (a set of a parent's 12 k matches cost ~1 ms a find to find none held).
  const heldRows = prepared(`${candidates.with}SELECT i.node_id ${candidates.from}`)
    .pluck()
    .all({ ...params, ...candidates.params }) as number[];
  if (heldRows.length === 0) return heldRows;
  const heldSet = new Set(heldRows);
  const held: number[] = [];
  for (let i = 0; i < ids.length; i += 1) if (heldSet.has(ids[i]!)) held.push(ids[i]!);
  return held;
}

/**
 * `held` (heldAmong's, in the matches' order) with the matches the find holds back by their
 * cited source (HELD_BY_SOURCE), still in the matches' order: what a driven find leaves out.
 */
function withHeldBySource(frame: FindFrame, ids: Float64Array, held: number[]): readonly number[] {
  const bySource = frame.params.held_by_source_nodes;
  if (bySource === undefined) return held;
  const nodes = new Set(JSON.parse(bySource as string) as number[]);
  for (const id of held) nodes.add(id);
  const out: number[] = [];
  for (let i = 0; i < ids.length; i += 1) if (nodes.has(ids[i]!)) out.push(ids[i]!);
  return out;
}

/**
 * A keyword find whose filters item_fts holds: the total is counted in item_fts (scopedTotal),
 * the held-back ones from the rows that can be held (heldCandidates).
 */
function scopedFind(frame: KeywordFrame, scopeOf: (text: string) => string): FindPlan {
  const { prepared, params } = frame;
  const scope = scopeOf(frame.match);
  const split = frameSplit(frame);
  const candidates = heldCandidates(
    [...frame.where, 'i.node_id IN (SELECT rowid FROM item_fts WHERE item_fts MATCH @scope)'],
    frame.held,
  );
  const matches = { ...candidates, params: { ...candidates.params, scope } };
  const matched = scopedTotal(frame, scopeOf, split);
  const held = (
    prepared(`${matches.with}SELECT count(*) AS held ${matches.from} AND ${HELD_BACK}`).get({
      ...params,
      ...matches.params,
    }) as { held: number }
  ).held;
  return {
    counts: { matched, held },
    ranked: keywordRanked(frame, split),
    heldBack: heldBackOf(frame, matches),
  };
}

/**
 * The exact total of a scoped keyword find: its matches in item_fts within its scope, the
 * matches of its common phrases (splitAtFloor) counted apart and kept. Trigger: "theme loader
 * N" over 114 k items: every find walked the postings of "theme" and "loader" (~114 k each,
 * 8.5 ms of a ~17 ms find) to count the same matches again, only N moving. Why: a count is a
 * walk of every posting of every phrase; FTS5 keeps no counts. Outcome: the matches of the
 * common phrases within the scope are counted once and kept (frame.scopeTotals: a read-only
 * connection keeps them until PRAGMA data_version moves, itemReader), and the other phrases
 * add the matches that hold none of the common ones (`… NOT text : (common)`, FTS5 walking
 * their postings and seeking the common ones'): |A ∪ B| = |A| + |B \ A|, exact for any split.
 * What stays: the first find after a write pays the common phrases' walk once; a find with no
 * common phrase counts as before (its phrases' walk, kept by its whole MATCH).
 */
function scopedTotal(
  frame: KeywordFrame,
  scopeOf: (text: string) => string,
  split: FloorSplit | null,
): number {
  const count = (match: string) =>
    (
      frame
        .prepared('SELECT count(*) AS matched FROM item_fts WHERE item_fts MATCH @scope')
        .get({ scope: match }) as { matched: number }
    ).matched;
  const kept = (match: string) => {
    let total = frame.scopeTotals.get(match);
    if (total === undefined) frame.scopeTotals.set(match, (total = count(match)));
    return total;
  };
  const text = (indexes: readonly number[]) => indexes.map((i) => frame.phrases[i]!).join(' OR ');
  if (split === null) return kept(scopeOf(frame.match));
  const common = kept(scopeOf(text(split.floor)));
  if (split.above.length === 0) return common;
  return common + count(`(${scopeOf(text(split.above))}) NOT text : (${text(split.floor)})`);
}

/**
 * A keyword find in the reference ranking (keywordBudget 0) with a tag, parent or anchor
 * filter: totals and held-back list from the hits joined to their items (HITS).
 */
function joinedFind(frame: KeywordFrame): FindPlan {
  const matches = {
    with: HITS,
    from: `${HITS_FROM} WHERE ${frame.where.join(' AND ')}`,
    params: {},
  };
  return {
    counts: frame
      .prepared(
        `${matches.with}SELECT count(*) AS matched, coalesce(sum(${HELD_BACK}), 0) AS held ${matches.from}`,
      )
      .get(frame.params) as { matched: number; held: number },
    ranked: keywordRanked(frame),
    heldBack: heldBackOf(frame, matches),
  };
}

/** The split of `frame`'s phrases at FTS5's idf floor (splitAtFloor), with what its reader kept of each. */
function frameSplit(frame: KeywordFrame): FloorSplit | null {
  return splitAtFloor(
    frame.prepared,
    frame.phrases,
    frame.keywordBudget,
    frame.floorScored,
    frame.phraseFloors,
  );
}

/**
 * The ranked set of a keyword find no driver holds: under a floor phrase chosen by that rule
 * (floorCandidates, keyword-candidates.ts DECISION); else the candidates a bound proves
 * (boundedCandidates); else the best @candidates by FTS5's rank over every match.
 */
function keywordRanked(frame: KeywordFrame, split = frameSplit(frame)): FindPlan['ranked'] {
  const { prepared, phrases, match, params, k, keywordBudget: budget } = frame;
  const delivered = `${frame.where.join(' AND ')} AND ${frame.delivered}`;
  const bounded = split
    ? floorCandidates(prepared, { phrases, split, delivered, params, k, budget })
    : boundedCandidates(prepared, { phrases, match, delivered, params, k, budget });
  if (bounded !== null) return boundedRanked(bounded);
  return {
    sql: keywordCandidatesSql(delivered),
    relevance: 'rank() OVER (ORDER BY r.score)',
    params: { candidates: k },
  };
}

/**
 * Every match of a keyword find that a tag, parent or anchor filter drives: the filter's
 * items (`from`, the driver joined to its items and filtered) whose nodes match, each scored
 * by FTS5 under the whole query when `scored`. Trigger: a keyword find with a tag filter (a
 * few hundred items of 100 k). Why: every hit was joined to its item for the totals, and the
 * page's ORDER BY rank scored every hit to find the few the filter holds. Outcome: FTS5 walks
 * the hits' postings but scores only the filter's rows (`+rowid IN`), and no hit is joined to
 * its item: freshness is judged on the rows that can be held (drivenFind).
 */
function drivenMatches(
  prepared: Prepare,
  ids: string,
  params: Record<string, unknown>,
  scored: boolean,
): DrivenMatches {
  // Unscored when a floor phrase is in the query: drivenFloorCandidates scores the rows then.
  if (!scored)
    return unscored(
      prepared(
        `SELECT f.rowid FROM node_fts f WHERE node_fts MATCH @match AND +f.rowid IN (${ids})`,
      )
        .pluck()
        .all(params) as number[],
    );
  const rows = prepared(`SELECT f.rowid, f.rank FROM node_fts f
    WHERE node_fts MATCH @match AND +f.rowid IN (${ids})`)
    .raw()
    .all(params) as [number, number][];
  const matched = Float64Array.from(rows, (row) => row[0]);
  return { ids: matched, scores: rows.map((row) => row[1]), ascending: isAscending(matched) };
}

/** Unscored matches, as read. */
const unscored = (read: number[]): DrivenMatches => {
  const ids = Float64Array.from(read);
  return { ids, scores: null, ascending: isAscending(ids) };
};

/** Common phrases whose rowids a read-only reader keeps (each ~8 bytes a row: ~1 MB at 130 k rows). */
const KEPT_PHRASE_ROWS = 8;

/** A common phrase's rowids are read once a find has asked for it this many times since the store changed (commonHolders). */
const SIGHTS_BEFORE_READ = 4;

/** Common phrases whose sightings a read-only reader counts at once; a new one drops the oldest counted. */
const SIGHTED_PHRASES = 64;

/**
 * The node_fts rowids holding each common phrase of `split` (ascending), or null while one is
 * not kept. Trigger: a keyword find a tag or parent drives ("theme loader N" over a tag's 250
 * items or a parent's 12 k children) walked every posting of "theme" and "loader" (~130 k
 * each, ~11 ms for a tag) on every find, only to learn which of the driver's items hold them.
 * Why: FTS5 answers membership by a walk, or by a lookup that sets its iterators up afresh
 * per row (~16 µs: fewDriven). Outcome: on a read-only reader a common phrase's rowids are read
 * and kept while PRAGMA data_version stands (as the phrase floors and scopedTotal's counts
 * are: never stale), up to KEPT_PHRASE_ROWS phrases; membership is a binary search. Reading
 * one costs ~27 ms at 130 k rows (~2.5 walks), so it is read only when finds have asked for it
 * SIGHTS_BEFORE_READ times since the store changed: a store written between finds pays at
 * most one read per few finds, each of the others walking as before. The sightings are
 * counted apart from the kept rows (phraseSightings, at most SIGHTED_PHRASES, the oldest
 * dropped first), so phrases asked for and never kept do not stop the next being kept.
 */
function commonHolders(frame: KeywordFrame, split: FloorSplit): Float64Array[] | null {
  const { phraseRows: kept, phraseSightings: sighted } = frame;
  const phrases = split.floor.map((i) => frame.phrases[i]!);
  const unkept = phrases.filter((phrase) => !kept.has(phrase));
  if (unkept.length > KEPT_PHRASE_ROWS - kept.size) return null;
  let ready = true;
  for (const phrase of unkept) {
    const sights = (sighted.get(phrase) ?? 0) + 1;
    sighted.delete(phrase);
    if (sighted.size >= SIGHTED_PHRASES) sighted.delete(sighted.keys().next().value!);
    sighted.set(phrase, sights);
    if (sights < SIGHTS_BEFORE_READ) ready = false;
  }
  if (!ready) return null;
  for (const phrase of unkept) {
    const read = Float64Array.from(
      frame.prepared('SELECT rowid FROM node_fts WHERE node_fts MATCH @phrase').pluck().all({
        phrase,
      }) as number[],
    );
    kept.set(phrase, read);
    sighted.delete(phrase);
  }
  return phrases.map((phrase) => kept.get(phrase)!);
}

/**
 * The first index at or past `low` whose row is at least `id` in the ascending `rows` (rows.length
 * when none is): a gallop from `low`, then a search of that span. Asked for an ascending series
 * of ids, each from the last answer. Trigger: a parent's 12 k children, each searched for over
 * the whole of two common phrases' ~130 k rows (~2 ms a find). Outcome: a child costs the log of
 * its gap to the last one, not of the phrase's rows. A plain function of numbers (no closure per
 * phrase, no call per id through one): node ids are past 2^31, and a double passed where V8 does
 * not inline is boxed, ~16 bytes a call.
 */
function seek(rows: Float64Array, low: number, id: number): number {
  let step = 1;
  let high = low;
  while (high < rows.length && rows[high]! < id) {
    low = high + 1;
    high = low + step;
    step *= 2;
  }
  // rows[high] ≥ id, or high is past the end: the first row ≥ id is in [low, high].
  let top = Math.min(high, rows.length);
  while (low < top) {
    const middle = (low + top) >>> 1;
    if (rows[middle]! < id) low = middle + 1;
    else top = middle;
  }
  return low;
}

/** `ids` ascending: as they are when they already are (a parent's item_fts rowids), else sorted. */
function ascending(ids: number[]): number[] {
  for (let i = 1; i < ids.length; i += 1)
    if (ids[i - 1]! >= ids[i]!) return ids.sort((a, b) => a - b);
  return ids;
}

/**
 * drivenMatches' rows (unscored, ascending) from kept rowids: the driver's items holding a
 * common phrase (commonHolders) or one of the others (their postings walked: none is common,
 * so each holds fewer than half the rows); `aboveHolders` are the rows holding one of the
 * others, ascending: the only ones drivenFloorCandidates scores.
 */
function heldMatches(
  frame: KeywordFrame,
  split: FloorSplit,
  common: readonly Float64Array[],
): { matches: DrivenMatches; aboveHolders: number[] } {
  const { prepared } = frame;
  const driven = drivenRows(frame);
  const aboveRows =
    split.above.length === 0
      ? new Float64Array(0)
      : Float64Array.from(
          ascending(
            prepared('SELECT rowid FROM node_fts WHERE node_fts MATCH @above')
              .pluck()
              .all({ above: split.above.map((i) => frame.phrases[i]).join(' OR ') }) as number[],
          ),
        );
  const aboveHolders: number[] = [];
  const ids = new Float64Array(driven.length);
  let matched = 0;
  // Where each search stopped: the ids come ascending, so each resumes there (seek).
  let aboveAt = 0;
  const commonAt = common.map(() => 0);
  for (let i = 0; i < driven.length; i += 1) {
    const id = driven[i]!;
    aboveAt = seek(aboveRows, aboveAt, id);
    if (aboveRows[aboveAt] === id) aboveHolders.push(id);
    else {
      let holds = false;
      for (let j = 0; j < common.length && !holds; j += 1) {
        const rows = common[j]!;
        const at = seek(rows, commonAt[j]!, id);
        commonAt[j] = at;
        holds = rows[at] === id;
      }
      if (!holds) continue;
    }
    ids[matched] = id;
    matched += 1;
  }
  return {
    matches: { ids: ids.subarray(0, matched), scores: null, ascending: true },
    aboveHolders,
  };
}

/** Parents whose children a read-only reader keeps (each ~8 bytes a child). */
const KEPT_PARENTS = 8;

/**
 * The node ids of a driven find's items, ascending, once each; a parent's (parentDriven) kept
 * while the store does not change. Trigger: "theme loader N" under a parent of 12 k children
 * read its scope token's 12 k postings on every find (~3 ms of ~15 CPU). Outcome: on a
 * read-only reader they are kept with the common phrases' rows (frame.parentRows: cleared when
 * PRAGMA data_version moves, itemReader), for up to KEPT_PARENTS parents, the oldest dropped;
 * a writable connection reads them afresh each find. Keeping costs no read of its own: the
 * first find reads them as it did.
 */
function drivenRows(frame: KeywordFrame): Float64Array {
  const read = () =>
    Float64Array.from(
      ascending(frame.prepared(frame.drivenOnce).pluck().all(frame.params) as number[]),
    );
  const scope = frame.params.parent_scope;
  if (typeof scope !== 'string') return read();
  const kept = frame.parentRows;
  let rows = kept.get(scope);
  if (rows === undefined) {
    rows = read();
    if (kept.size >= KEPT_PARENTS) kept.delete(kept.keys().next().value!);
    kept.set(scope, rows);
  }
  return rows;
}

/**
 * Postings FTS5 walks (a node_fts MATCH, ~30 ns each) in the time it looks one phrase up in one
 * row by rowid (~16 µs: each lookup sets up the phrase's iterators afresh). Measured at 114 k
 * items: an anchor's 50 items probed 2.5 ms against 11 ms walked for "theme loader 7", a tag's
 * 250 12.1 against 11.5.
 */
export const PROBE_POSTINGS = 530;

/**
 * Whether a driven find with a floor phrase reads its matches cheaper from the driver's side
 * (probedMatches) than by walking the phrases' postings (drivenMatches): its filter holds so
 * few items that a rowid lookup of each phrase in each costs less than the walk, whose postings
 * are at least half of node_fts's rows per common phrase (splitAtFloor) and the hits of the
 * others. The filter's items are counted only up to that many.
 */
function fewDriven(frame: KeywordFrame, split: FloorSplit): boolean {
  const { prepared, phrases } = frame;
  const walked =
    split.floor.length * Math.ceil(ftsRowCount(prepared) / 2) +
    split.above.reduce((sum, i) => sum + split.hits[i]!, 0);
  const most = Math.floor(walked / (phrases.length * frame.probePostings));
  if (most === 0) return false;
  const { n } = prepared(
    `SELECT count(*) AS n FROM (SELECT 1 FROM (${frame.drivenIds}) LIMIT @most)`,
  ).get({
    ...frame.params,
    most: most + 1,
  }) as { n: number };
  return n <= most;
}

/**
 * drivenMatches' rows (unscored) read from the driver's side: each of the filter's items
 * looked up in node_fts by rowid. Trigger: a keyword find over an anchor's 50 items, which
 * walked every posting of "theme" and "loader" (114 k each) to keep 50. Why a walk: FTS5
 * scores and counts by walking, and a lookup per row sets its iterators up afresh (fewDriven
 * weighs the two). Outcome: the cost follows the filter's items; only unscored matches are read
 * so (a row's rank would count each phrase's hits again per lookup).
 */
function probedMatches(
  prepared: Prepare,
  ids: string,
  params: Record<string, unknown>,
): DrivenMatches {
  return unscored(
    prepared(`SELECT k.node_id FROM (${ids}) k
    CROSS JOIN node_fts f ON f.rowid = k.node_id WHERE node_fts MATCH @match`)
      .pluck()
      .all(params) as number[],
  );
}

/**
 * The candidates of a driven find with a floor phrase (keyword-candidates.ts, DECISION): the
 * driver's delivered matches holding an above-floor phrase, scored by FTS5 under those
 * phrases' OR, then the ones holding floor phrases only, in rowid order. `aboveHolders`, when
 * known (heldMatches), are the matches holding an above-floor phrase, held back or not: only
 * they are scored. Trigger: "theme loader N" over a parent's 12 k children passed all 12 k to
 * FTS5 as a JSON list to score the few holding "N" (~6 ms of ~20: the list's temporary index).
 * Outcome: the list is the few; FTS5 scores each row as before (the same MATCH, the same
 * statistics), so the scores are the same.
 */
function drivenFloorCandidates(
  prepared: Prepare,
  delivered: Float64Array,
  ascends: boolean,
  above: readonly string[],
  k: number,
  aboveHolders?: readonly number[],
) {
  const scorable = aboveHolders ?? delivered;
  const scoredRows =
    above.length === 0 || delivered.length === 0 || scorable.length === 0
      ? []
      : (prepared(`SELECT f.rowid, f.rank FROM node_fts f
            WHERE node_fts MATCH @above AND +f.rowid IN (SELECT value FROM json_each(@ids))`)
          .raw()
          .all({ above: above.join(' OR '), ids: idsJson(scorable) }) as [number, number][]);
  const scored: { node_id: number; score: number }[] = [];
  const floorOnly: number[] = [];
  if (ascends) {
    // Each scored row found in the matches by search, and only the first k floor-only matches
    // read: only they can be candidates (rowid order). A walk of every match cost ~50 bytes of
    // boxed doubles each until V8 optimised it (node ids are past 2^31).
    const at: number[] = [];
    for (const [node_id, score] of scoredRows) {
      const i = seek(delivered, 0, node_id);
      if (delivered[i] !== node_id) continue;
      scored.push({ node_id, score });
      at.push(i);
    }
    at.sort((a, b) => a - b);
    let next = 0;
    for (let i = 0; i < delivered.length && floorOnly.length < k; i += 1) {
      if (at[next] === i) next += 1;
      else floorOnly.push(delivered[i]!);
    }
  } else {
    const scores = new Map(scoredRows);
    for (let i = 0; i < delivered.length; i += 1) {
      const node_id = delivered[i]!;
      const score = scores.get(node_id);
      if (score !== undefined) scored.push({ node_id, score });
      else floorOnly.push(node_id);
    }
  }
  return floorRankedCandidates(scored, floorOnly, k);
}

/** Whether `ids` ascend strictly. */
function isAscending(ids: Float64Array): boolean {
  for (let i = 1; i < ids.length; i += 1) if (ids[i - 1]! >= ids[i]!) return false;
  return true;
}

/** Item reads over the `item`, `item_tag` and `edge` tables: what orient, open, read and find answer from. */
export function itemReader(
  db: Database.Database,
  {
    keywordBudget = KEYWORD_BUDGET,
    floorScored = FLOOR_SCORED,
    probePostings = PROBE_POSTINGS,
  }: {
    /** Postings a keyword find may search to prove its candidates (0: rank every match; the specs' reference). */
    keywordBudget?: number;
    /** Past this many matches a phrase at FTS5's idf floor adds no relevance (keyword-candidates.ts, DECISION). */
    floorScored?: number;
    /** PROBE_POSTINGS (specs lower it so that a small store's filters are probed). */
    probePostings?: number;
  } = {},
) {
  // Date.parse, as core's freshness verdict parses a TTL (deterministic: no clock is read).
  db.function('mem_ms', { deterministic: true }, (iso: unknown) =>
    typeof iso === 'string' ? Date.parse(iso) : null,
  );
  // mem_fts_text: a page's text tokenised as node_fts's (matchedTermsOfPage).
  registerFtsText(db);
  const cache = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  /**
   * A statement of `sql` that no unfinished iterator holds. Trigger: orient reads one index
   * range per project at once (orderedMerge asks each for its first row before taking any).
   * Why: an iterating statement is busy until its iterator ends, and a second iterate() of it
   * threw "This statement is busy executing a query": orient over two projects failed. Outcome:
   * another statement of the same text, kept for the next call (as many as projects read at once).
   */
  const idle = new Map<string, Database.Statement[]>();
  const iterable = (sql: string) => {
    let statements = idle.get(sql);
    if (!statements) idle.set(sql, (statements = []));
    let statement = statements.find((s) => !s.busy);
    if (!statement) statements.push((statement = db.prepare(sql)));
    return statement;
  };
  const json = (values: readonly string[]) => JSON.stringify(values);

  /*
   * What splitAtFloor learnt of each phrase (its hits to the cap, whether it is common), kept
   * while the store does not change. Trigger: "theme loader N" at 114 k items walked "theme" and
   * "loader" to half the rows on every find to prove them common (~5 ms of ~25). Outcome: on a
   * read-only connection (a server's readers: nothing written on it) the answers are kept until
   * PRAGMA data_version moves, when another connection committed, as the keyword statistics
   * reader keeps its sets; a writable connection learns afresh each find. The first find after
   * a write pays the walks. scopedTotal's counts of common phrases are kept the same way and
   * for as long: a commit on any connection moves data_version, and a read-only connection
   * commits nothing of its own, so a kept count is never stale (find-total-cache.int.spec).
   * A parent's children (drivenRows) are kept the same way and for as long.
   */
  const floors = new Map<string, PhraseFloor>();
  const totals = new Map<string, number>();
  const phraseRows = new Map<string, Float64Array>();
  const phraseSightings = new Map<string, number>();
  const parentRows = new Map<string, Float64Array>();
  // Prepared on the first find: a reader that never finds (orient's) prepares nothing for it.
  let dataVersion: Database.Statement | undefined;
  let floorsVersion = -1;
  const keptSinceWrite = (): Pick<
    FindFrame,
    'phraseFloors' | 'scopeTotals' | 'phraseRows' | 'phraseSightings' | 'parentRows'
  > => {
    if (!db.readonly)
      return {
        phraseFloors: new Map(),
        scopeTotals: new Map(),
        phraseRows: new Map(),
        phraseSightings: new Map(),
        parentRows: new Map(),
      };
    dataVersion ??= db.prepare('PRAGMA data_version').pluck();
    const version = dataVersion.get() as number;
    if (
      version !== floorsVersion ||
      floors.size >= CACHED_PHRASES ||
      totals.size >= CACHED_PHRASES
    ) {
      floors.clear();
      totals.clear();
      phraseRows.clear();
      phraseSightings.clear();
      parentRows.clear();
      floorsVersion = version;
    }
    return { phraseFloors: floors, scopeTotals: totals, phraseRows, phraseSightings, parentRows };
  };

  // A page's text, tokenised as node_fts tokenises it (mem_fts_text's, fts-text.ts), for matchedTermsOfPage (created on first use).
  let pageText: { clear: Database.Statement; fill: Database.Statement; terms: Database.Statement };
  const pageTextStatements = () => {
    if (pageText) return pageText;
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.item_page_text USING fts5 (text, ${TOKENIZE})`,
    );
    pageText = {
      clear: db.prepare('DELETE FROM temp.item_page_text'),
      fill: db.prepare(`INSERT INTO temp.item_page_text (rowid, text)
        SELECT n.id, mem_fts_text(n.text) FROM node n WHERE n.id IN (SELECT value FROM json_each(@ids))`),
      terms: db.prepare(`SELECT f.rowid AS id, t.key AS term FROM json_each(@matches) t
        JOIN temp.item_page_text f WHERE item_page_text MATCH t.value ORDER BY f.rowid, t.key`),
    };
    return pageText;
  };

  const activity = (roots: string, params: Record<string, unknown>) =>
    (prepared(activitySql(roots)).all(params) as RawActivity[]).map(toActivity);

  return {
    itemsById: (projects: readonly string[], ids: readonly string[]): ItemRow[] =>
      (
        prepared(`SELECT ${ITEM_COLUMNS} FROM item i
          WHERE ${IN_PROJECTS} AND i.id IN (SELECT value FROM json_each(@ids))
          ORDER BY i.project, i.id`).all({ projects: json(projects), ids: json(ids) }) as RawItem[]
      ).map(toItem),

    /** Every live descendant of `id` in `project`, depth first, children by creation. */
    descendants: (project: string, id: string): ItemRow[] =>
      (prepared(DESCENDANTS_SQL).all({ project, id }) as RawItem[]).map(toItem),

    /** Live items of `project` anchored to one of `ids` (edge_by_parent), by creation. */
    anchoredToAny: (project: string, ids: readonly string[]): ItemRow[] =>
      (
        prepared(`SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project = @project AND ${LIVE}
          AND i.id IN (SELECT e.child_sha FROM edge e WHERE e.project = @project
            AND e.parent_sha IN (SELECT value FROM json_each(@ids)) AND e.parent_level = 'I'
            AND e.kind = 'anchor' AND e.child_level = 'I')
          ORDER BY i.created_seq, i.id`).all({ project, ids: json(ids) }) as RawItem[]
      ).map(toItem),

    /**
     * Every event that changed the item `id` of `project`, in log order: its item_added entry
     * from the item row (migration 0030), then its item_history rows.
     */
    itemHistory: (project: string, id: string): ItemHistoryRow[] =>
      prepared(`SELECT i.created_seq AS seq, i.created_ts AS ts, 'item_added' AS type, i.added_actor AS actor,
          i.added_token AS token, i.added_reason AS reason, NULL AS text, NULL AS conversation,
          NULL AS relation, NULL AS other, NULL AS side
        FROM item i WHERE i.project = @project AND i.id = @id
        UNION ALL
        SELECT h.seq, h.ts, h.type, h.actor, h.token, h.reason, h.text, h.conversation, h.relation, h.other, h.side FROM item_history h
        WHERE h.project = @project AND h.id = @id ORDER BY seq`).all({
        project,
        id,
      }) as ItemHistoryRow[],

    findItems: (query: ItemFindQuery): ItemFound => {
      const phrases = query.phrases ?? [];
      const frame = findFrame(
        prepared,
        query,
        phrases.length > 0 ? phrases.join(' OR ') : undefined,
        { keywordBudget, floorScored, probePostings, ...keptSinceWrite() },
      );
      const plan = choosePlan(frame);
      const { sql, relevance, params } = plan.ranked;
      const items = (
        prepared(rankedPageSql(sql, relevance)).all({
          ...frame.params,
          recency_weight: query.recencyWeight,
          limit: query.limit,
          offset: query.offset,
          ...params,
        }) as (RawItem & RawRanks)[]
      ).map((raw) => ({ ...toItem(raw), ...ranksOf(raw) }));
      // The page is chosen on its sort keys alone and only its rows get their tags and
      // relations: computing them for every match before the sort cost a subquery per match.
      const { matched, held } = plan.counts;
      return {
        total: query.includeStale ? matched : matched - held - heldBySourceAlone(frame),
        items,
        heldBack: held > 0 ? plan.heldBack(query.heldBackLimit).map(toItem) : [],
        heldBackTotal: held,
      };
    },

    /**
     * The matches of `query` (its filters and keyword phrases; its page, clock and heldBySource
     * aside) that cite a source, by creation, at most `limit`: what find_items judges before
     * its statement so that its total and pages leave out the ones their sources hold back.
     * Read from item_citing (migration 0035), each row's filters checked and its node matched
     * by rowid (a probe per citing row, never the phrases' postings): the cost follows the
     * find's projects' citing items, none when nothing cites.
     */
    citingMatches: (query: ItemFindQuery, limit: number): CitingRow[] => {
      const phrases = query.phrases ?? [];
      const match = phrases.length > 0 ? phrases.join(' OR ') : undefined;
      const frame = findFrame(prepared, query, match, {
        keywordBudget,
        floorScored,
        probePostings,
        ...keptSinceWrite(),
      });
      const read = (limit: number) =>
        prepared(`SELECT i.node_id, i.project, i.id, i.type, i.status, i.opened_ts,
            i.valid_until, i.review_after, i.source_uri, i.source_sha256, i.created_seq
          FROM item i INDEXED BY item_citing
          WHERE i.source_uri IS NOT NULL AND i.source_sha256 IS NOT NULL
            AND ${frame.itemWhere.join(' AND ')}
          ${BY_CREATION} LIMIT @limit`).all({ ...frame.params, limit }) as (CitingRow & {
          node_id: number;
        })[];
      if (match === undefined) return read(limit).map(citingRow);
      // Every citing row of the filters, then those whose node matches: a few probed by rowid
      // (~0.1 ms each under common phrases: 10 k citing rows cost 1.1 s), more by one walk of
      // the phrases' postings kept to those rows (drivenMatches' `+rowid IN`).
      const rows = read(-1);
      if (rows.length === 0) return [];
      const ids = idsJson(rows.map((row) => row.node_id));
      const matched = new Set(
        rows.length <= CITING_PROBES
          ? (prepared(`SELECT value FROM json_each(@ids) c WHERE EXISTS (
              SELECT 1 FROM node_fts f WHERE node_fts MATCH @match AND f.rowid = c.value)`)
              .pluck()
              .all({ ids, match }) as number[])
          : (prepared(`SELECT f.rowid FROM node_fts f WHERE node_fts MATCH @match
              AND +f.rowid IN (SELECT value FROM json_each(@ids))`)
              .pluck()
              .all({ ids, match }) as number[]),
      );
      return rows
        .filter((row) => matched.has(row.node_id))
        .slice(0, limit)
        .map(citingRow);
    },

    /**
     * Which of `matches` (MATCH expressions, each typically one quoted term) each of the nodes
     * `nodeIds` holds: node id -> indexes into `matches`, ascending. Trigger: a find's page
     * (at most MAX_FIND_LIMIT items) of a query whose terms each match most of the store
     * ("theme loader" over 100 k items). Why: matched over node_fts, each term read all of its
     * postings (~100 k a term), since FTS5 does not seek a MATCH by rowid (matched-terms-sql.ts).
     * Outcome: the page's texts are indexed alone in a TEMP FTS5 table with node_fts's
     * tokenizer, and each term is matched there: the cost follows the page. A match depends on
     * the document's own tokens only, so the answer is node_fts's.
     */
    matchedTermsOfPage: (
      matches: readonly string[],
      nodeIds: readonly number[],
    ): Map<number, number[]> => {
      const out = new Map<number, number[]>();
      if (matches.length === 0 || nodeIds.length === 0) return out;
      const { clear, fill, terms } = pageTextStatements();
      clear.run();
      try {
        fill.run({ ids: JSON.stringify(nodeIds) });
        for (const { id, term } of terms.all({ matches: json(matches) }) as {
          id: number;
          term: number;
        }[]) {
          const list = out.get(id);
          if (list) list.push(term);
          else out.set(id, [term]);
        }
      } finally {
        clear.run();
      }
      return out;
    },

    /**
     * The always-loaded rules or facts of `projects`, as the write budget counts them: live,
     * unanchored and not archived, by project, then oldest first (item_unanchored). The same set
     * T0 loads (loadedKnowledge): archiving one frees its room, and filing it back is a write
     * set_attention checks against the cap.
     */
    unanchored: (projects: readonly string[], type: 'rule' | 'fact'): ItemRow[] =>
      (
        prepared(`SELECT ${ITEM_COLUMNS} FROM item i INDEXED BY item_unanchored
          WHERE ${IN_PROJECTS} AND i.type = @type AND i.anchor_count = 0 AND ${LIVE} AND ${UNARCHIVED}
          ORDER BY i.project, i.created_seq, i.id`).all({
          projects: json(projects),
          type,
        }) as RawItem[]
      ).map(toItem),

    /**
     * What T0 loads of `projects`' rules or facts: live, unanchored and not archived, by
     * project, then oldest first — unanchored()'s set, which the write budget counts. Only the
     * columns T0 reads: its tags and relations were three sub-queries a row that orient threw away.
     */
    loadedKnowledge: (projects: readonly string[], type: 'rule' | 'fact'): KnowledgeRow[] =>
      prepared(`SELECT i.project, i.id, i.type, i.status, i.summary, i.created_ts, i.valid_until, i.review_after,
            i.source_uri, i.source_sha256
          FROM item i INDEXED BY item_unanchored
          WHERE ${IN_PROJECTS} AND i.type = @type AND i.anchor_count = 0 AND ${LIVE} AND ${UNARCHIVED}
          ORDER BY i.project, i.created_seq, i.id`).all({
        projects: json(projects),
        type,
      }) as KnowledgeRow[],

    /** Live, unresolved, unarchived threads of `projects` with their activity and open descendants. */
    openThreads: (projects: readonly string[]): ItemActivityRow[] =>
      activity(
        `SELECT i.project, i.id FROM item i INDEXED BY item_open_thread WHERE ${IN_PROJECTS} AND ${OPEN_THREAD}`,
        { projects: json(projects) },
      ),

    /**
     * The open threads of `project`, most recent activity first (tree_activity, binary, then id
     * descending), read lazily from item_open_thread: a caller that stops at its cap reads only
     * the rows it took, each one primary-key lookup for its entry.
     */
    openThreadsByActivity: function* (project: string): Generator<ItemActivityRow> {
      const keys = iterable(`SELECT i.project, i.id FROM item i INDEXED BY item_open_thread
        WHERE i.project = @project AND ${OPEN_THREAD} ORDER BY i.tree_activity DESC, i.id DESC`);
      const row = prepared(activitySql('SELECT @project, @id'));
      for (const key of keys.iterate({ project }) as Iterable<{ project: string; id: string }>)
        yield toActivity(row.get(key) as RawActivity);
    },

    /** How many open threads `projects` hold: a count over item_open_thread's range (covering). */
    openThreadCount: (projects: readonly string[]): number =>
      (
        prepared(
          `SELECT count(*) AS open FROM item i INDEXED BY item_open_thread WHERE ${IN_PROJECTS} AND ${OPEN_THREAD}`,
        ).get({ projects: json(projects) }) as { open: number }
      ).open,

    /**
     * Live, unresolved reminders of `project` due at or before `horizon` (ISO text, compared as
     * text), by remind_at, then id (binary), read lazily from item_due_reminder alone (covering,
     * the summary included: migration 0025). Trigger: orient shows the first few of thousands
     * due. Why: over a list of projects (`project IN (…)`), ORDER BY remind_at is no index order,
     * so SQLite sorted every due reminder, summaries and all, before the first row (a temp
     * B-tree: 0.5 ms of 2,484 at 100 k items). Outcome: one project's index range is already in
     * this order, so a caller that stops at its cap reads the rows it took; orient merges the
     * projects' ranges (orderedMerge). The iterator holds the statement until it is finished or
     * returned, which resets it.
     */
    dueReminders: function* (
      project: string,
      horizon: string,
    ): Generator<DueReminderRow, void, undefined> {
      yield* iterable(`SELECT i.project, i.id, i.status, i.remind_at, i.summary FROM item i INDEXED BY item_due_reminder
        WHERE i.project = @project AND ${DUE_REMINDER_OF} ORDER BY i.remind_at, i.id`).iterate({
        project,
        horizon,
      }) as Iterable<DueReminderRow>;
    },

    /** How many reminders dueReminders would yield for each of `projects`, summed: a count over the same index range. */
    dueReminderCount: (projects: readonly string[], horizon: string): number =>
      (
        prepared(
          `SELECT count(*) AS due FROM item i INDEXED BY item_due_reminder WHERE ${DUE_REMINDER}`,
        ).get({ projects: json(projects), horizon }) as { due: number }
      ).due,

    /** Live items per project (projects without one left out): the kept totals (item_live_count). */
    liveCounts: (projects: readonly string[]): ItemCountRow[] =>
      prepared(`SELECT c.project, c.items FROM item_live_count c
        WHERE c.project IN (SELECT value FROM json_each(@projects)) ORDER BY c.project`).all({
        projects: json(projects),
      }) as ItemCountRow[],

    /**
     * Live items of one project per type and status (null for knowledge), by type then status:
     * what `mem project status` counts. The item_by_type index's range for the project.
     */
    typeCounts: (project: string): ItemTypeCountRow[] =>
      prepared(`SELECT i.type, i.status, count(*) AS items FROM item i
        WHERE i.project = @project AND ${LIVE} GROUP BY i.type, i.status
        ORDER BY i.type, i.status`).all({ project }) as ItemTypeCountRow[],

    /**
     * Tags of live items with how many carry each, by tag: the kept totals (item_tag_count).
     * One project's are its primary-key range as they are (no sum, no GROUP BY's temp B-tree:
     * 0.24 -> 0.17 ms CPU for 374 tags); several projects' are summed per tag.
     */
    tagCounts: (projects: readonly string[]): ItemTagCountRow[] =>
      projects.length === 1
        ? (prepared(`SELECT c.tag, c.count FROM item_tag_count c
            WHERE c.project = @project ORDER BY c.tag`).all({
            project: projects[0],
          }) as ItemTagCountRow[])
        : (prepared(`SELECT c.tag, sum(c.count) AS count FROM item_tag_count c
            WHERE c.project IN (SELECT value FROM json_each(@projects)) GROUP BY c.tag ORDER BY c.tag`).all(
            {
              projects: json(projects),
            },
          ) as ItemTagCountRow[]),

    /** Live children of `id` in `project`, each with its activity and open descendants. */
    children: (project: string, id: string): ItemActivityRow[] =>
      activity(
        `SELECT i.project, i.id FROM item i INDEXED BY item_by_parent
          WHERE i.project = @project AND ${LIVE} AND i.parent = @id`,
        { project, id },
      ),

    /** Live items of `type` anchored to `id` in `project`, with their activity, oldest first. */
    anchoredTo: (project: string, id: string, type: 'rule' | 'fact'): ItemActivityRow[] =>
      activity(
        `SELECT i.project, i.id FROM item i WHERE i.project = @project AND i.type = @type AND ${LIVE} AND ${hasEdge('anchor', '@id')}`,
        { project, id, type },
      ),
  };
}

export type ItemReader = ReturnType<typeof itemReader>;
