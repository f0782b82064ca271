import { SYSTEM_PROJECT, isMemError } from '@mem/core';
import type { ItemRow, ItemStore, NodeRow } from '@mem/projector-sqlite';
import { citationsOfPage } from './citations.js';
import { KEYWORD_POSTINGS_BUDGET, defaultFloor, defaultWeights } from './defaults.js';
import { notesOfPage } from './line-note.js';
import { coverageDecides, floorPassedBy, type RelevanceFloor } from './floor.js';
import {
  compareFused,
  fuse,
  nodeKeyString,
  type Fused,
  type SignalLists,
  type SignalWeights,
} from './fusion.js';
import { recallKeyword, type KeywordStrategy, type RecallFilter } from './keyword-recall.js';
import { itemKey, itemOf, itemRowsOf, type ItemHoldBack } from './item-hits.js';
import { keywordTerms } from './keyword-terms.js';
import { foldPage, type FoldInput, type FoldedRow } from './fold-duplicates.js';
import { annotateMatchedTerms } from './matched-terms.js';
import type { Embedder, Reranker, VectorRecall } from './ports.js';
import { rerankCandidates } from './rerank.js';
import { resolveRequest, type QueryRequest } from './request.js';
import {
  INSUFFICIENT_RECALL,
  type AsOf,
  type Addition,
  type Correction,
  type FoldedHit,
  type QueryHit,
  type QueryResult,
  type Signal,
  type Supersession,
} from './result.js';
import { tierOf } from './tier.js';
import { orderWithinBands, type OrderInput } from './band-order.js';
import { temporalCue } from './temporal-cue.js';
import { recallVectors } from './vector-recall.js';

/** What a query reads. Without `vectors` and `embedder` it runs on keywords alone, and says so. */
export interface QueryDeps {
  items: ItemStore;
  vectors?: VectorRecall | null;
  embedder?: Embedder | null;
  reranker?: Reranker | null;
  /** Overrides the floor of the embedder (see defaultFloor in defaults.ts). */
  floor?: Partial<RelevanceFloor>;
  keywordStrategy?: KeywordStrategy;
  /** Postings the keyword recall may score (default KEYWORD_POSTINGS_BUDGET; see termsWithinBudget). */
  postingsBudget?: number;
  /** Overrides the fusion weights of the embedder (see defaultWeights). */
  weights?: Partial<SignalWeights>;
  /**
   * `items` is the store as it stood at these seqs (a replay of the log, forgotten text left
   * out), not today's: the vector leg is skipped, since the index holds only today's lines.
   */
  asOf?: { projects: AsOf['projects']; note: string };
  /** Which recalled curated items to hold back (expired, stale): the caller's verdict. None: every item is delivered. */
  holdBackItems?: ItemHoldBack;
  /**
   * Memory lines (lineKeyOf) this recall leaves out before it ranks and folds: the caller held
   * them back, so their fresh duplicates stand on their own instead of folding into them.
   */
  withoutLines?: ReadonlySet<string>;
  /**
   * Why the vector side could not be opened although this root has one (another process holds
   * the embedded PGlite): the answer says `vector: 'failed'` with this error, so a client that
   * never sees the opener's stderr (MCP, JSON) knows its answer is keyword-only.
   */
  vectorsUnavailable?: { code: string; message: string } | null;
}

/** A memory line's identity as `withoutLines` names it. */
export function lineKeyOf(line: { project: string; level: string; sha256: string }): string {
  return `${line.project}\0${line.level}\0${line.sha256}`;
}

/** Each recall fetches this many hits (at least): fusion needs more than the page it returns. */
export function recallDepth(limit: number): number {
  return Math.max(50, 2 * limit);
}

/** At most this many survivors of the floor are reranked. */
export function rerankDepth(limit: number): number {
  return Math.max(20, limit);
}

/**
 * Answers a question from the memory: keyword and vector recall with the filters inside each
 * recall, fused by reciprocal rank, cut at the relevance floor, optionally reranked, each
 * result with its citations and a ranking that explains its place. Abstains
 * ("insufficient recall") when nothing clears the floor.
 */
export async function queryMemory(request: QueryRequest, deps: QueryDeps): Promise<QueryResult> {
  const resolved = resolveRequest(request);
  const { items } = deps;
  const projects =
    resolved.projects ??
    items
      .positions()
      .map((p) => p.project)
      .filter((p) => p !== SYSTEM_PROJECT);
  const filter: RecallFilter = {
    projects,
    levels: resolved.levels,
    includeSuperseded: resolved.includeSuperseded,
  };
  const { terms } = keywordTerms(resolved.text);
  const depth = recallDepth(resolved.limit);
  const errors: QueryResult['recall']['errors'] = [];

  const keyword = recallKeyword(
    items,
    terms,
    filter,
    depth,
    deps.keywordStrategy ?? 'or',
    deps.postingsBudget ?? KEYWORD_POSTINGS_BUDGET,
  );
  const nodes = new Map<string, NodeRow>(keyword.nodes.map((n) => [nodeKeyString(n), n]));
  const lists: SignalLists = { keyword: keyword.hits };
  const ran: Signal[] = ['keyword'];
  let vector: QueryResult['recall']['vector'] = deps.asOf ? 'skipped' : 'not configured';
  if (deps.vectors && deps.embedder && !deps.asOf) {
    try {
      const found = await recallVectors(deps.vectors, deps.embedder, resolved.text, filter, depth);
      lists.vector_text = found.text;
      lists.vector_symptom = found.symptom;
      ran.push('vector_text', 'vector_symptom');
      vector = 'used';
    } catch (error) {
      vector = 'failed';
      errors.push({ leg: 'vector', ...describe(error) });
    }
  } else if (!deps.vectors && deps.vectorsUnavailable && !deps.asOf) {
    vector = 'failed';
    errors.push({ leg: 'vector', ...deps.vectorsUnavailable });
  }

  const eligible: Candidate[] = [];
  const embedderName = vector === 'used' ? deps.embedder!.name : null;
  const floor = { ...defaultFloor(embedderName), ...deps.floor };
  // Trigger: a symptom hit below the floor. Why: a symptom vector says "this memory explains
  // that failure"; a question that is no failure still lands next to some symptom, and rank
  // fusion would count that neighbour like a match. Outcome: it does not enter the fusion.
  if (lists.vector_symptom)
    lists.vector_symptom = lists.vector_symptom.filter((hit) => hit.score >= floor.minSimilarity);
  const weights = { ...defaultWeights(embedderName), ...deps.weights };
  const candidates = fuse(lists, ran, weights);
  lookUpMissing(items, nodes, candidates);
  for (const fused of candidates) {
    const node = nodes.get(nodeKeyString(fused.key));
    // Trigger: a vector index ahead of or behind the item store, or an implementation that
    // ignored the filter. Why: the filters already sit inside each recall; this only keeps a
    // forbidden node from ever reaching the caller. Outcome: the candidate is dropped.
    if (
      !node ||
      node.deleted_at !== null ||
      (node.superseded_by !== null &&
        !(resolved.includeSuperseded && supersessionOf(items, node))) ||
      !projects.includes(node.project) ||
      !resolved.levels.includes(node.level) ||
      (node.kind === 'line' && deps.withoutLines?.has(lineKeyOf(node)))
    )
      continue;
    eligible.push({ fused, node, item: null });
  }
  attachItems(items, projects, eligible);

  // The floor decides whether there is an answer: when no candidate clears it the query
  // abstains with no rows. When one does, the candidates that cleared it come first (relevance
  // first, seed 004), then the rest in rank order, each row saying in floor_passed_by whether it
  // cleared the floor itself; inside a relevance band, recency orders (orderWithinBands). (Cutting every row below the floor was measured: LoCoMo dev
  // recall@25 fell from 0.72 to 0.58.)
  // Coverage (matched terms, one FTS5 lookup per term and row) decides the floor only for a
  // keyword hit that neither its BM25 nor a vector clears; the page's rows get theirs below.
  const undecided = eligible.filter(({ fused }) => coverageDecides(fused.ranking, floor));
  annotateMatchedTerms(items, terms, undecided, keyword.held);
  for (const { fused } of eligible)
    fused.ranking.floor_passed_by = floorPassedBy(fused.ranking, floor);
  // Trigger: a recalled item the caller's verdict holds back (expired, stale). Why: the verdict
  // names each item it judges, and a vector leg brings the nearest items whatever the question:
  // judging them all named every held-back item of the project on an unrelated question.
  // Outcome: the items that cleared the floor are judged now (they are the answer's matches);
  // one below the floor only when it reaches the page (below).
  const judge = holdBackOf(deps.holdBackItems);
  await judge(
    eligible,
    eligible.filter((c) => c.item !== null && cleared(c) === 1),
  );
  const byFloorThenRank = (a: Candidate, b: Candidate) =>
    cleared(b) - cleared(a) || compareFused(a.fused, b.fused);
  eligible.sort(byFloorThenRank);
  const answered = eligible.length > 0 && cleared(eligible[0]!) === 1;

  let rerank: QueryResult['recall']['rerank'] = 'not configured';
  if (deps.reranker && answered) {
    const head = eligible.slice(0, rerankDepth(resolved.limit));
    try {
      await rerankCandidates(
        deps.reranker,
        resolved.text,
        head.map((e) => e.fused),
        head.map((e) => e.node.text),
      );
      rerank = 'used';
    } catch (error) {
      for (const e of head) e.fused.ranking.rerank = null;
      rerank = 'failed';
      errors.push({ leg: 'rerank', ...describe(error) });
    }
    eligible.sort(byFloorThenRank);
  }
  const cue = temporalCue(resolved.text);
  // A pinned line leads its band as a pinned item does (one statement for every candidate line).
  const pins = items.pinnedLines(eligible.map((c) => c.node).filter((n) => n.kind === 'line'));
  const pageOf = () => {
    const ordered = orderWithinBands(eligible, (c) => bandInputOf(c, pins), cue);
    return !answered
      ? []
      : resolved.fold
        ? foldPage(ordered, ({ row }) => foldInputOf(row), resolved.limit, {
            store: items,
            mark: items.changeMark(),
          })
        : ordered.slice(0, resolved.limit).map((row) => ({ row, folded: [] }));
  };
  // An item below the floor is judged once it reaches the page, folded or shown; when one is
  // held back it leaves and the page is laid again (each round removes items, so it ends).
  let folds = pageOf();
  for (;;) {
    const reached = folds
      .flatMap((f) => [f.row.row, ...f.folded.map(({ row }) => row.row)])
      .filter((c) => c.item !== null);
    if (!(await judge(eligible, reached))) break;
    folds = pageOf();
  }
  const page = folds.map((f) => f.row);
  const annotated = new Set(undecided);
  const rest = page.map((p) => p.row).filter((row) => !annotated.has(row));
  annotateMatchedTerms(items, terms, rest, keyword.held);
  for (const { fused } of rest) fused.ranking.floor_passed_by = floorPassedBy(fused.ranking, floor);

  const parents = citationsOfPage(
    items,
    page.map(({ row }) => row.node),
    resolved.citations,
  );
  const notes = notesOfPage(
    items,
    page.map(({ row }) => row.node),
  );
  const lineage = foldedHitsOf(items, folds);
  const results: QueryHit[] = page.map(({ row: { fused, node, item }, ranking: order }, i) => ({
    kind: node.kind as QueryHit['kind'],
    item: item ? itemOf(item) : null,
    level: node.level,
    sha256: node.sha256,
    project: node.project,
    text: node.text,
    source: node.source,
    score: fused.ranking.rerank ? fused.ranking.rerank.score : fused.ranking.rrf_score_micro / 1e6,
    tier: tierOf(node.level),
    ranking: { ...fused.ranking, order, ...(resolved.fold ? { folded: lineage[i]!.length } : {}) },
    note: notes[i]!,
    parents: parents[i]!,
    corrected_by: correctionOf(node),
    superseded_by: node.superseded_by === null ? null : supersessionOf(items, node),
    added_by: additionOf(node),
    ...(resolved.fold ? { folded: lineage[i]! } : {}),
  }));
  return {
    results,
    abstained: results.length === 0,
    ...(results.length === 0 ? { reason: INSUFFICIENT_RECALL } : {}),
    recall: {
      signals: ran,
      vector,
      rerank,
      terms,
      left_out: keyword.leftOut,
      projects,
      levels: resolved.levels,
      floor,
      weights,
      errors,
      ...(deps.asOf ? { as_of: { ...deps.asOf, legs: ran } } : {}),
    },
  };
}

/** What the fold compares of a candidate: its kind, place and text, and a promoted item's line. */
function foldInputOf({ node, item }: Candidate): FoldInput {
  return {
    kind: node.kind,
    project: node.project,
    level: node.level,
    sha256: node.sha256,
    text: node.text,
    fromLine: item?.from_line
      ? { sha256: item.from_line.sha256, level: item.from_line.level }
      : null,
  };
}

/** Each page row's folded hits, named: kind, sha or item id, level, note (one statement for the notes). */
function foldedHitsOf(
  items: ItemStore,
  folds: readonly FoldedRow<{ row: Candidate }>[],
): FoldedHit[][] {
  const nodes = folds.flatMap((f) => f.folded.map(({ row }) => row.row.node));
  const notes = notesOfPage(items, nodes);
  let at = 0;
  return folds.map((f) =>
    f.folded.map(({ row: { row }, rank, reason }) => ({
      kind: row.node.kind as FoldedHit['kind'],
      sha256: row.node.sha256,
      item_id: row.item ? row.item.id : null,
      level: row.node.level,
      project: row.node.project,
      text: row.node.text,
      note: notes[at++]!,
      rank,
      reason,
    })),
  );
}

/**
 * Adds to `nodes` the node of each candidate the keyword leg did not bring (a vector hit), all
 * in one statement. An L1/L2 answer is a line, never a whole memory (issue 11 §3): a hit on a
 * memory sha (a vector index that still embeds memories) is no answer unless the memory is one
 * line, whose line node shares its sha (ItemStore.nodesAt).
 */
function lookUpMissing(
  items: ItemStore,
  nodes: Map<string, NodeRow>,
  candidates: readonly Fused[],
): void {
  const missing = candidates.filter((fused) => !nodes.has(nodeKeyString(fused.key)));
  items.nodesAt(missing.map((fused) => fused.key)).forEach((node, i) => {
    if (node) nodes.set(nodeKeyString(missing[i]!.key), node);
  });
}

/** The correction a successor line's meta names (the SQLite projector writes it from the `superseded` event). */
function correctionOf(node: NodeRow): Correction | null {
  if (node.kind !== 'line') return null;
  const corrected = node.meta.corrected_by as Correction | undefined;
  return corrected ?? null;
}

/**
 * What a `superseded` event replaced a line by; null for a line that is live or that only its
 * memory's chain retired (that is no correction, and history shows corrections only).
 */
function supersessionOf(items: ItemStore, node: NodeRow): Supersession | null {
  if (node.kind !== 'line') return null;
  const row = items.supersession(node.project, node.sha256);
  if (!row) return null;
  return { sha256: row.after_sha256, seq: row.seq, actor: row.actor, reason: row.reason };
}

/** The capture an added line's meta names (the SQLite projector writes it from the `line_added` event). */
function additionOf(node: NodeRow): Addition | null {
  if (node.kind !== 'line') return null;
  return (node.meta.added_by as Addition | undefined) ?? null;
}

/**
 * Gives each item candidate its row, in place, and drops the items that have none (deleted,
 * archived). Lines pass untouched.
 */
function attachItems(items: ItemStore, projects: readonly string[], eligible: Candidate[]): void {
  const rows = itemRowsOf(
    items,
    projects,
    eligible.map((c) => c.node),
  );
  let kept = 0;
  for (const candidate of eligible) {
    if (candidate.node.kind === 'item') {
      const row = rows.get(candidate.node.id);
      if (!row) continue;
      candidate.item = row;
    }
    eligible[kept++] = candidate;
  }
  eligible.length = kept;
}

/**
 * The caller's verdict (holdBackItems) asked once for each item candidate, on the candidates
 * given: the ones it holds back leave `eligible`, in place. Resolves whether any candidate was
 * held back (a page laid before it may have changed).
 */
function holdBackOf(
  holdBack: ItemHoldBack | undefined,
): (eligible: Candidate[], candidates: readonly Candidate[]) => Promise<boolean> {
  const judged = new Set<Candidate>();
  return async (eligible, candidates) => {
    const fresh = candidates.filter((c) => c.item !== null && !judged.has(c));
    if (!holdBack || fresh.length === 0) return false;
    for (const c of fresh) judged.add(c);
    const held = await holdBack(fresh.map((c) => c.item!));
    if (held.size === 0) return false;
    let kept = 0;
    for (const c of eligible) if (!(c.item && held.has(itemKey(c.item)))) eligible[kept++] = c;
    eligible.length = kept;
    return true;
  };
}

interface Candidate {
  fused: Fused;
  node: NodeRow;
  /** A curated item's row (its pin, its last activity, what the result says of it); null for anything else. */
  item: ItemRow | null;
}

/**
 * What the band order reads of a candidate: the order it stands in (the floor, the rerank, the
 * fused or rerank score), the line's seq for recency, and no usage (mem records no deliveries:
 * seed 004 counts only packs attached to a handoff, and a query is an inspection, never a write).
 */
function bandInputOf({ fused, node, item }: Candidate, pins: ReadonlySet<NodeRow>): OrderInput {
  const { rerank } = fused.ranking;
  return {
    relevanceMicro: rerank ? Math.round(rerank.score * 1e6) : fused.ranking.rrf_score_micro,
    // The tier is part of the group: learned before seen before documented stays a rule
    // (seed 001), which recency does not overturn. So is the keyword strength in whole units
    // of one single-node term match (bm25_norm): a line matching more of the query is a
    // stronger match, and one merely a neighbour in rank must not let recency lift a line
    // matching less above it.
    group: [
      fused.ranking.floor_passed_by.length > 0 ? 1 : 0,
      rerank ? 'r' : '',
      tierOf(node.level),
      fused.ranking.keyword ? Math.floor(fused.ranking.keyword.bm25_norm) : -1,
    ].join('/'),
    // An item's recency is its last activity (as find_items orders); its pin, or a line's
    // (`mem pin`), leads its band.
    seq: item ? item.updated_seq : node.seq,
    deliveries: null,
    pinned: item ? item.pinned : pins.has(node),
  };
}

/** 1 when the candidate cleared the relevance floor by some signal, else 0. */
function cleared(candidate: Candidate): number {
  return candidate.fused.ranking.floor_passed_by.length > 0 ? 1 : 0;
}

function describe(error: unknown): { code: string; message: string } {
  if (isMemError(error)) return { code: error.code, message: error.message };
  return { code: 'MODEL_FAILED', message: error instanceof Error ? error.message : String(error) };
}
