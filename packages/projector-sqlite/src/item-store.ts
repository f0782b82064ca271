import Database from 'better-sqlite3';
import { itemReader, type ItemReader } from './item-reads.js';
import { LINE_NOTE_SQL, type LineNoteRow } from './line-note-sql.js';
import { lineRefReader, type LineRefReader } from './line-refs.js';
import { MATCHED_TERMS_SQL } from './matched-terms-sql.js';
import { pageReader, type PageReader } from './page-reads.js';
import {
  keywordStatisticsReader,
  type KeywordPosting,
  type KeywordStatistics,
  type PostingsOptions,
  type ReachableSet,
} from './keyword-statistics.js';
import type {
  CitedChunkRow,
  CitedNode,
  EdgeRow,
  FailureSignatureRow,
  ReviewFindingRow,
  IdempotencyKeyRow,
  GateCounts,
  KeywordHit,
  LineEdgeRow,
  NodeLevel,
  SupersessionRow,
  NodeRow,
  PositionRow,
  RunRow,
  SearchHit,
} from './rows.js';
import { CITED_CHUNKS_SQL } from './cited-chunks-sql.js';

export interface OpenItemStoreOptions {
  /** Only read-only access is offered: writes go through the log and the projector. */
  readonly?: true;
  /**
   * false: every keyword postings read goes to node_fts, no reachable set gets its own index
   * (set-index.ts) — the reference the set indexes are tested and measured against.
   */
  keywordSetIndexes?: boolean;
}

export interface NodeFilter {
  project: string;
  levels?: readonly NodeLevel[];
  /** Only nodes of this kind; without it, every kind but `line` (lines are asked for by name). */
  kind?: NodeRow['kind'];
  /** Include nodes a tombstone deleted (default false). */
  includeDeleted?: boolean;
  /** Include memories a later memory of their chain replaced (default false). */
  includeSuperseded?: boolean;
}

export interface SearchOptions {
  project?: string;
  levels?: readonly NodeLevel[];
  includeDeleted?: boolean;
  includeSuperseded?: boolean;
  /** Default 20. */
  limit?: number;
}

/** Filters of a keyword recall: they sit inside the FTS5 statement, before its LIMIT. */
export interface KeywordRecallOptions {
  /** Only nodes of these projects (an empty list recalls nothing). */
  projects: readonly string[];
  /** Only nodes at these levels (an empty list recalls nothing). */
  levels: readonly NodeLevel[];
  limit: number;
}

/** Typed read queries over a sealed `items.sqlite`. Every list has a total order. */
export interface ItemStore extends ItemReader, PageReader, LineRefReader {
  positions(): PositionRow[];
  nodes(filter: NodeFilter): NodeRow[];
  /**
   * The node of `sha256` in `project` (at `level`, else at its lowest level): of `kind`, else
   * anything but a line (a one-line memory's line shares the memory's sha; see line()).
   */
  node(
    project: string,
    sha256: string,
    level?: NodeLevel,
    kind?: NodeRow['kind'],
  ): NodeRow | undefined;
  /** The line node `sha256` at `level` (issue 11 §3: lines are the unit of recall). */
  line(project: string, level: 'L1' | 'L2', sha256: string): NodeRow | undefined;
  /** A line's edges: the memories holding it (`memory`) and the shas it rests on (`parent`), by kind then sha. */
  lineEdges(project: string, level: 'L1' | 'L2', sha256: string): LineEdgeRow[];
  /**
   * The live memory holding the line `sha256` (not superseded, not deleted): the first by query
   * id, the L2 synthesis (no query id) last, then by sha. Walks the live memories of the level
   * (one per standing query, see LINE_NOTE_SQL), never the line's history.
   */
  lineNote(project: string, level: 'L1' | 'L2', sha256: string): LineNoteRow | undefined;
  /** The supersession of the line `sha256` by a `superseded` event (not by its memory's chain), if any. */
  supersession(project: string, sha256: string): SupersessionRow | undefined;
  /** Which of these lines are pinned (line_pin), in one statement: the ones given that are. */
  pinnedLines<T extends { project: string; level: string; sha256: string }>(
    lines: readonly T[],
  ): Set<T>;
  /** The newest record of an idempotency key (by its sha), or undefined: one index lookup. */
  idempotencyKey(keySha256: string): IdempotencyKeyRow | undefined;
  /** The open review findings of `project` (none decided), oldest first. */
  openFindings(project: string): ReviewFindingRow[];
  /** How many findings of each kind are open in each of `projects`, by project then kind (review_finding_open_kind). */
  openFindingCounts(
    projects: readonly string[],
  ): { project: string; kind: ReviewFindingRow['kind']; open: number }[];
  /** The failure_signature rows of these sig_shas in these projects, by sig_sha, then project. */
  failureSignatures(sigShas: readonly string[], projects: readonly string[]): FailureSignatureRow[];
  /** The node of `sha256` at `level` as a citation shows it: the whole text, or its first `maxChars` characters. */
  citedNode(
    project: string,
    sha256: string,
    level: NodeLevel,
    maxChars: number | null,
  ): CitedNode | undefined;
  /**
   * The L0 chunks of these evidence shas in `project` as ingest read them (span and chunk
   * size), the first read of each sha: what a freshness check re-chunks. A sha with no span
   * (an HTTP-posted transcript's chunk) is left out.
   */
  citedChunks(project: string, shas: readonly string[]): CitedChunkRow[];
  /** The latest confirmation of each of these lines: each cited chunk's digest then, by line sha. */
  lineConfirmations(
    project: string,
    lineShas: readonly string[],
  ): { line_sha: string; chunk_sha: string; digest: string }[];
  /** Provenance edges of the node: to its parents, or from its children. */
  edges(project: string, sha256: string, direction: 'parents' | 'children'): EdgeRow[];
  /** Runs of a standing query (null: the project's L2 synthesis runs), in log order. */
  runs(project: string, queryId: string | null): RunRow[];
  /** Distinct chunk shas every run of the query has read, sorted. */
  seenChunkShas(project: string, queryId: string | null): string[];
  /**
   * The current memory of a standing query (or, for queryId null, of the project's L2
   * synthesis): the head of its own chain, even when another query wrote the same text.
   * Undefined when it has none, or when its head was tombstoned.
   */
  memoryHead(project: string, queryId: string | null): NodeRow | undefined;
  /** Per source URI, the end (exclusive record ordinal) of the chunks the query's runs have read. */
  chunkProgress(project: string, queryId: string | null): Record<string, number>;
  gateCounts(project: string, runId: string): GateCounts;
  /** FTS5 search over whole nodes (no lines); `match` is passed to MATCH as is (sanitising queries is the query package's job). */
  search(match: string, options?: SearchOptions): SearchHit[];
  /**
   * Filter-then-recall over FTS5: project and level filters in the same statement as MATCH, so
   * LIMIT counts only eligible nodes; never deleted or superseded nodes, never lines (the query's
   * own recall, over tokenPostings, answers with lines). Best BM25 first, then
   * node id. `match` is passed to MATCH as is.
   */
  keywordRecall(match: string, options: KeywordRecallOptions): KeywordHit[];
  /** BM25's N and summed length (FTS5 tokens) over exactly the live nodes of `set` (lines, not whole memories). */
  keywordStatistics(set: ReachableSet): KeywordStatistics;
  /**
   * The FTS5 tokens of each term, as node_fts's tokenizer indexes them (stemmed, folded), distinct,
   * in order; a term holding CJK characters is one "token", its FTS5 phrase (fts-text.ts's
   * ftsPhrase: its bigrams), whose postings are the phrase's matches (tf 1).
   */
  ftsTokens(terms: readonly string[]): string[][];
  /** How many live nodes of `set` hold `token` (an FTS5 token, see ftsTokens): its document frequency there. */
  tokenFrequency(token: string, set: ReachableSet): number;
  /**
   * The live nodes of `set` holding `token` (an FTS5 token, see ftsTokens), lines not whole
   * memories: id, occurrences, length; by id. With `ids`, only those nodes (a bounded rescoring);
   * with `limit`, the first that many.
   */
  tokenPostings(token: string, set: ReachableSet, options?: PostingsOptions): KeywordPosting[];
  /** Nodes by id, in the order of `ids` (an id that is no node is left out). */
  nodesById(ids: readonly number[]): NodeRow[];
  /**
   * Which of `matches` (each a MATCH expression, typically one quoted term) each node holds:
   * node id → indexes into `matches`, ascending. One FTS5 match per expression (MATCHED_TERMS_SQL).
   */
  matchedTerms(matches: readonly string[], nodeIds: readonly number[]): Map<number, number[]>;
  /**
   * This connection's PRAGMA data_version: it moves when another connection commits to the
   * store. Whatever a reader keeps of the store's text between calls is dropped when it moves.
   */
  changeMark(): number;
  close(): void;
}

interface RawNode extends Omit<NodeRow, 'meta'> {
  meta: string;
}

interface RawRun extends Omit<RunRow, 'exit_gate' | 'error'> {
  exit_gate: number | null;
  error: string | null;
}

const NODE_COLUMNS =
  'n.id, n.project, n.level, n.kind, n.query_id, n.run_id, n.t, n.source, n.text, n.sha256, n.seq, n.created_ts, n.superseded_by, n.deleted_at, n.meta';

/**
 * The page cache of a read connection, in KiB (SQLite's default is 2,000 KiB). Trigger: a keyword
 * find joins each FTS5 hit to its item, at random (ids are hashes), and at 100 k items the item
 * rows span ~50 MB. Why: with 2 MB cached, nearly every lookup was a read from the OS. Outcome: a
 * server's long-lived read connection keeps up to this much of the store in its own cache; the
 * pages are allocated as read, so a small store costs what it holds.
 */
export const READER_CACHE_KIB = 64 * 1024;

/**
 * Open review findings by project and kind, from the covering partial index (migration 0032,
 * which holds every column this names): with no statistics the planner would scan the primary
 * key, decided findings included (3,000 open of 30,000: 7.2 → 3.8 ms CPU, load 12), and on an
 * index without `decision` it looked each open row up in the table.
 */
export const OPEN_FINDING_COUNTS_SQL = `SELECT project, kind, count(*) AS open
    FROM review_finding INDEXED BY review_finding_open_kind WHERE decision IS NULL AND project IN (SELECT value FROM json_each(?))
    GROUP BY project, kind ORDER BY project, kind`;

/** Opens `items.sqlite` read-only. */
export function openItemStore(
  path: string,
  options: OpenItemStoreOptions = { readonly: true },
): ItemStore {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma(`cache_size = -${READER_CACHE_KIB}`);
  const toNode = (raw: RawNode): NodeRow => ({
    ...raw,
    meta: JSON.parse(raw.meta) as Record<string, unknown>,
  });

  const levelsJson = (levels: readonly NodeLevel[] | undefined) =>
    levels ? JSON.stringify(levels) : null;
  const visibility = `(@includeDeleted = 1 OR n.deleted_at IS NULL) AND (@includeSuperseded = 1 OR n.superseded_by IS NULL)
    AND (@levels IS NULL OR n.level IN (SELECT value FROM json_each(@levels)))`;

  const nodes = db.prepare(`SELECT ${NODE_COLUMNS} FROM node n
    WHERE n.project = @project AND (CASE WHEN @kind IS NULL THEN n.kind <> 'line' ELSE n.kind = @kind END) AND ${visibility}
    ORDER BY n.seq, n.level, n.id`);
  const node = db.prepare(`SELECT ${NODE_COLUMNS} FROM node n
    WHERE n.project = @project AND n.sha256 = @sha256 AND (@level IS NULL OR n.level = @level)
      AND (CASE WHEN @kind IS NULL THEN n.kind <> 'line' ELSE n.kind = @kind END)
    ORDER BY n.level LIMIT 1`);
  const citedChunks = db.prepare(CITED_CHUNKS_SQL);
  const lineConfirmations = db.prepare(
    `SELECT line_sha, chunk_sha, digest FROM line_confirmation
     WHERE project = ? AND line_sha IN (SELECT value FROM json_each(?)) ORDER BY line_sha, chunk_sha`,
  );
  const lineEdges = db.prepare(`SELECT project, level, line_sha, kind, target_sha FROM line_edge
    WHERE project = ? AND level = ? AND line_sha = ? ORDER BY kind, target_sha`);
  const lineNote = db.prepare(LINE_NOTE_SQL);
  const supersession = db.prepare(`SELECT after_sha256, seq, actor, reason FROM superseded_line
    WHERE project = ? AND sha256 = ? AND target_kind = 'line'`);
  const pinnedLines = db.prepare(`SELECT p.project, p.level, p.sha256 FROM line_pin p
    JOIN json_each(?) j ON p.project = j.value ->> 0 AND p.level = j.value ->> 1 AND p.sha256 = j.value ->> 2
    ORDER BY p.project, p.level, p.sha256`);
  const signatures =
    db.prepare(`SELECT project, sig_sha, signature, tool, level, line_sha, memory_sha, seen_count, first_seen, last_seen
    FROM failure_signature WHERE sig_sha IN (SELECT value FROM json_each(@shas)) AND project IN (SELECT value FROM json_each(@projects))
    ORDER BY sig_sha, project`);
  const idempotency =
    db.prepare(`SELECT key_sha256, project, fingerprint, op, first_seq, last_seq, ts
    FROM idempotency_key WHERE key_sha256 = ? ORDER BY ts DESC, project LIMIT 1`);
  const findings = db.prepare(`SELECT id, kind, subjects, explanation, seq, opened_by
    FROM review_finding WHERE project = ? AND decision IS NULL ORDER BY seq, id`);
  const findingCounts = db.prepare(OPEN_FINDING_COUNTS_SQL);
  const cited = db.prepare(`SELECT level, sha256, source, t, deleted_at, length(text) AS text_chars,
      CASE WHEN @maxChars IS NULL THEN text ELSE substr(text, 1, @maxChars) END AS text
    FROM node WHERE project = @project AND sha256 = @sha256 AND level = @level AND kind <> 'line'`);
  const parents =
    db.prepare(`SELECT project, child_level, child_sha, parent_level, parent_sha, kind FROM edge
    WHERE project = ? AND child_sha = ? ORDER BY child_level, parent_sha, kind`);
  const children =
    db.prepare(`SELECT project, child_level, child_sha, parent_level, parent_sha, kind FROM edge
    WHERE project = ? AND parent_sha = ? ORDER BY child_level, child_sha, kind`);
  const runs = db.prepare(`SELECT * FROM run WHERE project = ? AND query_id IS ?
    ORDER BY started_seq IS NULL, started_seq, run_id`);
  const seen =
    db.prepare(`SELECT DISTINCT c.sha256 FROM run r JOIN chunk c ON c.project = r.project AND c.run_id = r.run_id
    WHERE r.project = ? AND r.query_id IS ? ORDER BY c.sha256`);
  const head = db.prepare(`SELECT ${NODE_COLUMNS} FROM memory_head h
    JOIN node n ON n.project = h.project AND n.level = h.level AND n.sha256 = h.sha256 AND n.kind = 'memory'
    WHERE h.project = ? AND h.level = ? AND h.query_key = ? AND n.deleted_at IS NULL`);
  const progress = db.prepare(`SELECT c.source AS source, max(c.span_end) AS span_end FROM run r
    JOIN chunk c ON c.project = r.project AND c.run_id = r.run_id
    WHERE r.project = ? AND r.query_id IS ? AND c.span_end IS NOT NULL GROUP BY c.source ORDER BY c.source`);
  const gates =
    db.prepare(`SELECT count(*) AS gates, coalesce(sum("update"), 0) AS updates, coalesce(sum("exit"), 0) AS exits
    FROM gate WHERE project = ? AND run_id = ?`);
  const positions = db.prepare(
    `SELECT project, last_seq AS seq, head FROM projection_state ORDER BY project`,
  );
  const search =
    db.prepare(`SELECT ${NODE_COLUMNS}, f.rank AS rank FROM node_fts f JOIN node n ON n.id = f.rowid
    WHERE node_fts MATCH @match AND (@project IS NULL OR n.project = @project) AND n.kind <> 'line' AND ${visibility}
    ORDER BY f.rank, n.id LIMIT @limit`);

  // bm25() is negative, lower is better; negated here so a hit carries a positive score.
  const keywordRecall =
    db.prepare(`SELECT ${NODE_COLUMNS}, -bm25(node_fts) AS bm25 FROM node_fts f JOIN node n ON n.id = f.rowid
    WHERE node_fts MATCH @match
      AND n.project IN (SELECT value FROM json_each(@projects)) AND n.level IN (SELECT value FROM json_each(@levels))
      AND n.deleted_at IS NULL AND n.superseded_by IS NULL AND n.kind <> 'line'
    ORDER BY bm25(node_fts), n.id LIMIT @limit`);
  const byIds = db.prepare(
    `SELECT ${NODE_COLUMNS} FROM json_each(@ids) j JOIN node n ON n.id = j.value ORDER BY j.key`,
  );
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const statistics = keywordStatisticsReader(db, {
    setIndexes: options.keywordSetIndexes !== false,
  });
  const matchedTerms = db.prepare(MATCHED_TERMS_SQL);

  return {
    ...itemReader(db),
    ...pageReader(db, NODE_COLUMNS, toNode),
    ...lineRefReader(db),
    positions: () => positions.all() as PositionRow[],
    nodes: (filter) =>
      (
        nodes.all({
          project: filter.project,
          kind: filter.kind ?? null,
          levels: levelsJson(filter.levels),
          includeDeleted: filter.includeDeleted ? 1 : 0,
          includeSuperseded: filter.includeSuperseded ? 1 : 0,
        }) as RawNode[]
      ).map(toNode),
    node: (project, sha256, level, kind) => {
      const raw = node.get({ project, sha256, level: level ?? null, kind: kind ?? null }) as
        RawNode | undefined;
      return raw ? toNode(raw) : undefined;
    },
    line: (project, level, sha256) => {
      const raw = node.get({ project, sha256, level, kind: 'line' }) as RawNode | undefined;
      return raw ? toNode(raw) : undefined;
    },
    lineEdges: (project, level, sha256) => lineEdges.all(project, level, sha256) as LineEdgeRow[],
    lineConfirmations: (project, lineShas) =>
      lineConfirmations.all(project, JSON.stringify(lineShas)) as {
        line_sha: string;
        chunk_sha: string;
        digest: string;
      }[],
    citedChunks: (project, shas) =>
      citedChunks.all(project, JSON.stringify(shas)) as CitedChunkRow[],
    lineNote: (project, level, sha256) =>
      lineNote.get({ project, level, line: sha256 }) as LineNoteRow | undefined,
    supersession: (project, sha256) =>
      supersession.get(project, sha256) as SupersessionRow | undefined,
    pinnedLines: (lines) => {
      if (lines.length === 0) return new Set();
      const rows = pinnedLines.all(
        JSON.stringify(lines.map((l) => [l.project, l.level, l.sha256])),
      ) as { project: string; level: string; sha256: string }[];
      const pinned = new Set(rows.map((r) => pinnedLineKey(r)));
      return new Set(lines.filter((l) => pinned.has(pinnedLineKey(l))));
    },
    failureSignatures: (sigShas, projects) =>
      signatures.all({
        shas: JSON.stringify(sigShas),
        projects: JSON.stringify(projects),
      }) as FailureSignatureRow[],
    idempotencyKey: (keySha256) => idempotency.get(keySha256) as IdempotencyKeyRow | undefined,
    openFindings: (project) =>
      (findings.all(project) as (Omit<ReviewFindingRow, 'subjects'> & { subjects: string })[]).map(
        (raw) => ({ ...raw, subjects: JSON.parse(raw.subjects) as string[] }),
      ),
    openFindingCounts: (projects) =>
      findingCounts.all(JSON.stringify(projects)) as {
        project: string;
        kind: ReviewFindingRow['kind'];
        open: number;
      }[],
    citedNode: (project, sha256, level, maxChars) =>
      cited.get({ project, sha256, level, maxChars }) as CitedNode | undefined,
    edges: (project, sha256, direction) =>
      (direction === 'parents' ? parents : children).all(project, sha256) as EdgeRow[],
    runs: (project, queryId) =>
      (runs.all(project, queryId) as RawRun[]).map((raw) => ({
        ...raw,
        exit_gate: raw.exit_gate === null ? null : raw.exit_gate === 1,
        error: raw.error === null ? null : (JSON.parse(raw.error) as RunRow['error']),
      })),
    seenChunkShas: (project, queryId) =>
      (seen.all(project, queryId) as { sha256: string }[]).map((r) => r.sha256),
    memoryHead: (project, queryId) => {
      const raw = head.get(project, queryId === null ? 'L2' : 'L1', queryId ?? '') as
        RawNode | undefined;
      return raw ? toNode(raw) : undefined;
    },
    chunkProgress: (project, queryId) =>
      Object.fromEntries(
        (progress.all(project, queryId) as { source: string; span_end: number }[]).map((r) => [
          r.source,
          r.span_end,
        ]),
      ),
    gateCounts: (project, runId) => gates.get(project, runId) as GateCounts,
    search: (match, options = {}) =>
      (
        search.all({
          match,
          project: options.project ?? null,
          levels: levelsJson(options.levels),
          includeDeleted: options.includeDeleted ? 1 : 0,
          includeSuperseded: options.includeSuperseded ? 1 : 0,
          limit: options.limit ?? 20,
        }) as (RawNode & { rank: number })[]
      ).map(({ rank, ...raw }) => ({ node: toNode(raw), rank })),
    keywordRecall: (match, options) =>
      (
        keywordRecall.all({
          match,
          projects: JSON.stringify(options.projects),
          levels: JSON.stringify(options.levels),
          limit: options.limit,
        }) as (RawNode & { bm25: number })[]
      ).map(({ bm25, ...raw }) => ({ node: toNode(raw), bm25 })),
    changeMark: () => dataVersion.get() as number,
    keywordStatistics: (set) => statistics.statistics(set),
    ftsTokens: (terms) => statistics.tokens(terms),
    tokenFrequency: (token, set) => statistics.frequency(token, set),
    tokenPostings: (token, set, options) => statistics.postings(token, set, options),
    nodesById: (ids) =>
      ids.length === 0 ? [] : (byIds.all({ ids: JSON.stringify(ids) }) as RawNode[]).map(toNode),
    matchedTerms: (matches, nodeIds) => {
      const out = new Map<number, number[]>();
      if (matches.length === 0 || nodeIds.length === 0) return out;
      for (const { id, term } of matchedTerms.all({
        matches: JSON.stringify(matches),
        ids: JSON.stringify(nodeIds),
      }) as { id: number; term: number }[]) {
        const list = out.get(id);
        if (list) list.push(term);
        else out.set(id, [term]);
      }
      return out;
    },
    close: () => db.close(),
  };
}

/** A line node's key: its project, level and sha256. */
function pinnedLineKey(line: { project: string; level: string; sha256: string }): string {
  return `${line.project}\u0000${line.level}\u0000${line.sha256}`;
}
