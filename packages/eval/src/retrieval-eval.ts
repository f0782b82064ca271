import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemError, type MemConfig } from '@mem/core';
import { cachedEmbedder, embedderFromEnv, rerankerFromEnv } from '@mem/embed';
import { Engine, type Projector } from '@mem/engine';
import { openVectorRecall, projectorPgvector } from '@mem/projector-pgvector';
import {
  itemStorePath,
  openItemStore,
  projectorSqlite,
  type ItemStore,
} from '@mem/projector-sqlite';
import {
  MAX_LIMIT,
  keywordTerms,
  matchExpression,
  queryMemory,
  queryTuningFromEnv,
  type Embedder,
  type KeywordStrategy,
  type QueryDeps,
  type RelevanceFloor,
  type Reranker,
  type SignalWeights,
  type VectorRecall,
} from '@mem/query';
import { writeLocomo, locomoProject } from './locomo-store.js';
import type { LocomoConversation, LocomoQuestion } from './locomo.js';
import { percentile } from './metrics.js';
import { RecallTable } from './recall-at-k.js';

/** The vector half of the stack under test: a projection to keep, and its read side. */
export interface RetrievalVectorSide {
  projector: Projector;
  embedder: Embedder;
  open(stateDir: string): Promise<VectorRecall>;
}

export interface RetrievalEvalOptions {
  ks?: readonly number[];
  /** Where to write the scratch data root (default: a temporary directory, removed afterwards). */
  scratchRoot?: string;
  /** The stack's configuration (loadConfig's): MEM_EMBED_URL, MEM_RERANK_URL, DATABASE_URL; absent: every default. */
  config?: MemConfig;
  /** Absent: the environment's stack (embedded defaults: hash embedder, PGlite); null: keyword recall only. */
  vector?: RetrievalVectorSide | null;
  /** Absent: the environment's reranker (MEM_RERANK_URL), if any. */
  reranker?: Reranker | null;
  keywordStrategy?: KeywordStrategy;
  /**
   * Where the environment's embedder caches vectors (default: inside the scratch root, for this
   * run only). A directory kept between runs spares a remote model the same texts again.
   */
  embedCache?: string;
  /** Ask every question again under each setting: every similarity floor × every weights setting given. */
  sweep?: RetrievalSweep;
  /** Only the first `limit` questions (quick runs: only their conversations are written). */
  limit?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Settings to sweep; one left out keeps the run's own (the embedder's default, or the environment's). */
export interface RetrievalSweep {
  /** Vector similarity floors (RelevanceFloor.minSimilarity), each from 0 to 1. */
  floors?: readonly number[];
  /** Fusion weights settings; signals a setting leaves out keep their default. */
  weights?: readonly Partial<SignalWeights>[];
}

/** One swept setting: the floor and weights the answers recorded, and what they scored. */
export interface RetrievalSweepRow {
  floor: RelevanceFloor;
  weights: SignalWeights;
  recall: Record<string, number>;
  abstained: number;
}

export interface RetrievalScores {
  recall: Record<string, number>;
  per_category: Record<string, Record<string, number> & { questions: number }>;
  latency_ms: { p50: number; p95: number };
}

export interface RetrievalEvalReport {
  questions: number;
  conversations: number;
  turns: number;
  /** Distinct turn texts (a repeated text is one node). */
  nodes: number;
  ks: number[];
  stack: {
    signals: string[];
    embedder: string | null;
    reranker: string | null;
    keyword_strategy: KeywordStrategy;
  };
  mem: RetrievalScores & { abstained: number };
  /** The floor and weights the run's own answers were cut at and ranked by (null: no question asked). */
  tuning: { floor: RelevanceFloor; weights: SignalWeights } | null;
  /** One row per swept setting, in order (floors outer, weights inner); empty without a sweep. */
  sweep: RetrievalSweepRow[];
  baseline_fts5: RetrievalScores;
  /** LoCoMo paper, dialog-turn retrieval with DRAGON (recall in 0..1). */
  anchors: { dragon_dialog: Record<string, number> };
}

export const DEFAULT_KS: readonly number[] = [5, 10, 25, 50];
const DRAGON: Record<string, number> = { '5': 0.567, '10': 0.662, '25': 0.767, '50': 0.827 };

interface Case {
  project: string;
  question: LocomoQuestion;
}

/**
 * `mem eval retrieval`: every LoCoMo turn is written through the log into a scratch data root
 * (one R node per turn), every question with evidence asks the real query path (levels R, its
 * conversation's project), and recall@k of the gold dia_ids is reported overall and per
 * category beside a plain FTS5 BM25 baseline over the same store in the same run: every
 * question word quoted and OR-joined, ranked by bm25, no stopwords dropped, no fusion, no floor.
 */
export async function evalRetrieval(
  conversations: readonly LocomoConversation[],
  options: RetrievalEvalOptions = {},
): Promise<RetrievalEvalReport> {
  const ks = [...new Set(options.ks ?? DEFAULT_KS)].sort((a, b) => a - b);
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1 || k > MAX_LIMIT)) {
    throw new MemError(
      'INVALID_INPUT',
      `--k: expected integers from 1 to ${MAX_LIMIT}, got ${JSON.stringify(options.ks)}`,
      { field: 'k' },
    );
  }
  const maxK = ks[ks.length - 1]!;
  const config = options.config ?? {};
  const settings = sweepSettings(options.sweep);
  const tuning = queryTuningFromEnv(config);
  const root = options.scratchRoot ?? (await mkdtemp(join(tmpdir(), 'mem-eval-retrieval-')));
  const vector =
    options.vector === undefined
      ? environmentVectorSide(config, options.embedCache ?? join(root, 'embedding-cache'))
      : options.vector;
  const reranker = options.reranker === undefined ? rerankerFromEnv(config) : options.reranker;
  const engine = new Engine({
    root,
    projectors: [projectorSqlite, ...(vector ? [vector.projector] : [])],
  });
  let items: ItemStore | undefined;
  let vectors: VectorRecall | undefined;
  try {
    let cases: Case[] = conversations.flatMap((c) =>
      c.questions
        .filter((q) => q.evidence.length > 0)
        .map((question) => ({ project: locomoProject(c), question })),
    );
    if (options.limit !== undefined) cases = cases.slice(0, options.limit);
    const asked = conversations.filter((c) => cases.some((k) => k.project === locomoProject(c)));
    const ids = await writeLocomo(engine, asked);
    await engine.catchUp(); // creates the projections even when there was nothing to write
    items = openItemStore(itemStorePath(engine.paths.stateDir));
    if (vector) vectors = await vector.open(engine.paths.stateDir);
    const deps: QueryDeps = {
      items,
      vectors: vectors ?? null,
      embedder: vector?.embedder ?? null,
      reranker,
      keywordStrategy: options.keywordStrategy ?? 'or',
      ...tuning,
    };

    const mem = new Scores(ks);
    const baseline = new Scores(ks);
    let abstained = 0;
    let signals: string[] = ['keyword'];
    let used: RetrievalEvalReport['tuning'] = null;
    const ask = (question: LocomoQuestion, project: string, with_: QueryDeps) =>
      queryMemory(
        { text: question.question, projects: [project], levels: ['R'], limit: maxK },
        with_,
      );
    const total = cases.length * (1 + settings.length);
    for (const [i, { project, question }] of cases.entries()) {
      const diaIds = (sha: string) => ids.get(project)?.get(sha) ?? [];
      let started = performance.now();
      const result = await ask(question, project, deps);
      mem.add(
        question,
        result.results.map((r) => diaIds(r.sha256)),
        performance.now() - started,
      );
      if (result.abstained) abstained += 1;
      signals = result.recall.signals;
      used = { floor: result.recall.floor, weights: result.recall.weights };

      started = performance.now();
      const match = matchExpression(
        keywordTerms(question.question, { keepStopwords: true }).terms,
        'OR',
      );
      const hits =
        match === null
          ? []
          : items.keywordRecall(match, { projects: [project], levels: ['R'], limit: maxK });
      baseline.add(
        question,
        hits.map((h) => diaIds(h.node.sha256)),
        performance.now() - started,
      );
      options.onProgress?.(i + 1, total);
    }

    const sweep: RetrievalSweepRow[] = [];
    for (const [s, setting] of settings.entries()) {
      const table = new RecallTable(ks);
      const swept: QueryDeps = {
        ...deps,
        floor: { ...deps.floor, ...setting.floor },
        weights: { ...deps.weights, ...setting.weights },
      };
      // What the answers recorded; with no question asked, what the row would have swept.
      let recorded = {
        floor: { ...used?.floor, ...setting.floor } as RelevanceFloor,
        weights: { ...used?.weights, ...setting.weights } as SignalWeights,
      };
      let none = 0;
      for (const [i, { project, question }] of cases.entries()) {
        const result = await ask(question, project, swept);
        table.add(
          question.evidence,
          result.results.map((r) => ids.get(project)?.get(r.sha256) ?? []),
        );
        if (result.abstained) none += 1;
        recorded = { floor: result.recall.floor, weights: result.recall.weights };
        options.onProgress?.(cases.length * (s + 1) + i + 1, total);
      }
      sweep.push({ ...recorded, recall: table.means(), abstained: none });
    }
    return {
      questions: cases.length,
      conversations: asked.length,
      turns: asked.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0),
      nodes: [...ids.values()].reduce((n, m) => n + m.size, 0),
      ks,
      stack: {
        signals,
        embedder: vector?.embedder.name ?? null,
        reranker: reranker?.name ?? null,
        keyword_strategy: deps.keywordStrategy!,
      },
      mem: { ...mem.report(), abstained },
      tuning: used,
      sweep,
      baseline_fts5: baseline.report(),
      anchors: {
        dragon_dialog: Object.fromEntries(
          ks.filter((k) => String(k) in DRAGON).map((k) => [String(k), DRAGON[String(k)]!]),
        ),
      },
    };
  } finally {
    items?.close();
    await vectors?.close();
    if (options.scratchRoot === undefined) await rm(root, { recursive: true, force: true });
  }
}

/**
 * The stack `mem` runs with this environment: the pgvector projection (PGlite under the scratch
 * root unless DATABASE_URL) over the environment's embedder (hash-768 by default), cached under
 * `embedCache` (the turns and the questions: a sweep asks each question again).
 */
export function environmentVectorSide(config: MemConfig, embedCache: string): RetrievalVectorSide {
  const embedder = cachedEmbedder(embedderFromEnv(config), embedCache);
  return {
    projector: projectorPgvector({ embedder, config }),
    embedder,
    open: (stateDir) => openVectorRecall({ stateDir, config, expectEmbedder: embedder.name }),
  };
}

/** Recall tables overall and per category, and latencies, of one retriever. */
class Scores {
  private readonly overall: RecallTable;
  private readonly categories = new Map<number, RecallTable>();
  private readonly latencies: number[] = [];

  constructor(private readonly ks: readonly number[]) {
    this.overall = new RecallTable(ks);
  }

  add(question: LocomoQuestion, retrieved: readonly (readonly string[])[], ms: number): void {
    this.overall.add(question.evidence, retrieved);
    let table = this.categories.get(question.category);
    if (!table) this.categories.set(question.category, (table = new RecallTable(this.ks)));
    table.add(question.evidence, retrieved);
    this.latencies.push(ms);
  }

  report(): RetrievalScores {
    const per_category = Object.fromEntries(
      [...this.categories.entries()]
        .sort(([a], [b]) => a - b)
        .map(([category, table]) => [
          String(category),
          { ...table.means(), questions: table.count },
        ]),
    ) as RetrievalScores['per_category'];
    const ms = (x: number) => Math.round(x * 100) / 100;
    return {
      recall: this.overall.means(),
      per_category,
      latency_ms: {
        p50: ms(percentile(this.latencies, 50)),
        p95: ms(percentile(this.latencies, 95)),
      },
    };
  }
}

/** The sweep's settings, floors outer and weights inner; a bad floor is INVALID_INPUT naming --floor. */
function sweepSettings(
  sweep: RetrievalSweep | undefined,
): { floor: Partial<RelevanceFloor>; weights: Partial<SignalWeights> }[] {
  const floors = sweep?.floors ?? [];
  const bad = floors.filter((f) => !Number.isFinite(f) || f < 0 || f > 1);
  if (bad.length > 0)
    throw new MemError(
      'INVALID_INPUT',
      `--floor: expected similarity floors from 0 to 1, got ${JSON.stringify(bad)}`,
      { field: 'floor' },
    );
  const weights = sweep?.weights ?? [];
  if (floors.length === 0 && weights.length === 0) return [];
  const floorSettings: Partial<RelevanceFloor>[] =
    floors.length > 0 ? floors.map((minSimilarity) => ({ minSimilarity })) : [{}];
  const weightSettings: Partial<SignalWeights>[] = weights.length > 0 ? [...weights] : [{}];
  return floorSettings.flatMap((floor) => weightSettings.map((w) => ({ floor, weights: w })));
}
