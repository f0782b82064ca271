import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Tokenizer } from '@mem/chunk';
import { MemError, nearDuplicate } from '@mem/core';
import { Engine } from '@mem/engine';
import type { Controller } from '@mem/extractor';
import { ingest, loadStandingQueries, synthesize } from '@mem/ingest';
import {
  itemStorePath,
  openItemStore,
  projectorSqlite,
  type ItemStore,
} from '@mem/projector-sqlite';
import { SYNTHESIS_KEY, type GoldFile, type GoldSplit, type LoadedGoldSet } from './gold-set.js';
import { memoryLines } from './memory-lines.js';
import { round4 } from './metrics.js';
import { scoreRouting, type RouteScore } from './route-score.js';
import {
  compileNoise,
  poolMultiStepRates,
  poolRates,
  scoreFile,
  summarize,
  type FileNotesScore,
  type NotesSummary,
  type PooledRate,
} from './notes-score.js';

export interface NotesEvalOptions {
  /** The controller under test (the CLI passes the embedded default, or the one asked for). */
  controller: Controller;
  /** The L2 pass's controller (the CLI passes the embedded synthesis one); default `controller`. */
  synthesisController?: Controller;
  tokenizer: Tokenizer;
  /** Which files to run (default all). */
  split?: GoldSplit | 'all';
  /** Where to write the scratch data root (default: a temporary directory, removed afterwards). */
  scratchRoot?: string;
  onProgress?: (done: number, total: number, path: string) => void;
  /**
   * Also run the files as one growing project, a file a part, synthesised after each part
   * (IncrementalRun); default true. It ingests every file a second time.
   */
  incremental?: boolean;
}

/** Per standing query (and `synthesis`): how often the update gate opened, and the memory's size after each update. */
export interface NoteRun {
  chunks_seen: number;
  chunks_used: number;
  /** chunks_used / chunks_seen over the query's runs (run_end); 0 where it saw nothing. */
  update_rate: number;
  /** Tokens of each memory of the query's chain, in log order: flat means bounded. */
  memory_tokens_over_t: number[];
}

export interface NotesFileReport extends FileNotesScore {
  runs: Record<string, NoteRun>;
}

/** A split's files pooled: the notes' scores and, per query, the gate's update-rate over every chunk seen. */
export interface NotesOverall extends NotesSummary {
  runs: Record<string, PooledRate>;
  /** The same pooled over only the files whose run of the query saw more than one step (poolMultiStepRates). */
  runs_multi_step: Record<string, PooledRate>;
}

/**
 * The files run as one project that grows the way a demo or a working repository does: the
 * files added one a part, in the gold set's order, `mem ingest` then `mem synthesize` after
 * each. Its L2 continues from the memory the last part left, so its update-rate counts what a
 * synthesis changes as sessions arrive (first fill included), not one fill over finished notes.
 */
export interface IncrementalRun {
  project: string;
  /** One per file added: the synthesis steps read after that part and how many updated the L2. */
  parts: { path: string; steps: number; updates: number }[];
  /** Per standing query and `synthesis`, over the project's runs of every part. */
  runs: Record<string, NoteRun>;
  /** Lines of the final L2 memory. */
  l2_lines: number;
  /** Of them, lines no line of the current L1 memories says (near-duplicate): what the L1 evicted and the L2 kept. */
  l2_lines_unbacked: number;
}

export interface NotesEvalReport {
  gold: string;
  labelled_by: string;
  controller: string;
  split: GoldSplit | 'all';
  files: NotesFileReport[];
  /** Pooled per split present in the run, and over all files run. */
  overall: Partial<Record<GoldSplit | 'all', NotesOverall>>;
  /** The line router alone on the gold statements of each split run (no extraction involved). */
  routing: Partial<Record<GoldSplit | 'all', RouteScore>>;
  /** The files of the run as one growing project (absent when `incremental: false`). */
  incremental?: IncrementalRun;
}

/**
 * `mem eval notes`: each gold file of the split is ingested alone into a project of a scratch
 * data root with the gold set's standing queries, then synthesised; the current memory of every
 * query and the L2 synthesis are split into lines and scored against the file's findings and
 * the noise patterns (notes-score.ts). The gate's update rate comes from the runs' run_end.
 */
export async function evalNotes(
  gold: LoadedGoldSet,
  options: NotesEvalOptions,
): Promise<NotesEvalReport> {
  const split = options.split ?? 'all';
  const files = gold.files.filter((f) => split === 'all' || f.split === split);
  if (files.length === 0)
    throw new MemError('INVALID_INPUT', `${gold.file}: no file in the ${split} split`, {
      file: gold.file,
      split,
    });
  const root = options.scratchRoot ?? (await mkdtemp(join(tmpdir(), 'mem-eval-notes-')));
  const noise = compileNoise(gold.noise);
  try {
    const engine = new Engine({ root, projectors: [projectorSqlite] });
    const reports: NotesFileReport[] = [];
    const total = files.length * (options.incremental === false ? 1 : 2);
    for (const [i, file] of files.entries()) {
      const project = projectName(i, file);
      const transcript = await copyTranscript(
        resolve(gold.transcriptsDir, file.path),
        join(root, 'transcripts', project, file.path),
        file.lines,
      );
      await writeQueries(engine.paths.queriesDir, project, gold, [`${file.kind}:${transcript}`]);
      // No environment: the scratch project resolves only the one file it was given.
      const config = loadStandingQueries(engine.paths.queriesDir, project, { config: {} });
      await ingest({
        engine,
        config,
        controller: options.controller,
        tokenizer: options.tokenizer,
      });
      await synthesize({
        engine,
        config,
        controller: options.synthesisController ?? options.controller,
        tokenizer: options.tokenizer,
      });
      const keys = [...gold.queries.map((q) => q.id), SYNTHESIS_KEY];
      const { notes, runs } = await engine.readCaughtUp([project], () =>
        readNotes(itemStorePath(engine.paths.stateDir), project, keys, options.tokenizer),
      );
      reports.push({ ...scoreFile(file, notes, noise), runs });
      options.onProgress?.(i + 1, total, file.path);
    }
    const incremental =
      options.incremental === false
        ? undefined
        : await incrementalRun(engine, gold, files, options, (done, path) =>
            options.onProgress?.(files.length + done, total, path),
          );
    const overall: NotesEvalReport['overall'] = {};
    for (const s of ['tuning', 'held-out'] as const) {
      const of = reports.filter((r) => r.split === s);
      if (of.length > 0)
        overall[s] = {
          ...summarize(of),
          runs: poolRates(of),
          runs_multi_step: poolMultiStepRates(of),
        };
    }
    overall.all = {
      ...summarize(reports),
      runs: poolRates(reports),
      runs_multi_step: poolMultiStepRates(reports),
    };
    const routing: NotesEvalReport['routing'] = {};
    for (const s of ['tuning', 'held-out'] as const) {
      const of = files.filter((f) => f.split === s);
      if (of.length > 0) routing[s] = scoreRouting(gold, of);
    }
    routing.all = scoreRouting(gold, files);
    return {
      gold: gold.file,
      labelled_by: gold.labelled_by,
      controller: options.controller.name,
      split,
      files: reports,
      overall,
      routing,
      ...(incremental ? { incremental } : {}),
    };
  } finally {
    if (options.scratchRoot === undefined) await rm(root, { recursive: true, force: true });
  }
}

function projectName(index: number, file: GoldFile): string {
  const stem = basename(file.path)
    .replace(/\.jsonl$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .slice(0, 48);
  return `gold-${index}-${stem}`;
}

/** The transcript (or its first `lines` lines) copied into the scratch root, so a slice is a real file the reader opens. */
async function copyTranscript(
  from: string,
  to: string,
  lines: number | undefined,
): Promise<string> {
  const kept: string[] = [];
  try {
    const reader = createInterface({ input: createReadStream(from), crlfDelay: Infinity });
    for await (const line of reader) {
      kept.push(line);
      if (lines !== undefined && kept.length >= lines) break;
    }
    reader.close();
  } catch (error) {
    throw new MemError(
      'CONFIG_INVALID',
      `${from}: cannot read the gold transcript (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { file: from },
    );
  }
  await mkdir(dirname(to), { recursive: true });
  await writeFile(to, `${kept.join('\n')}\n`);
  return to;
}

/**
 * The incremental run (IncrementalRun): a project of its own in the same scratch root, a file
 * added to its sources a part, ingested and synthesised after each.
 */
async function incrementalRun(
  engine: Engine,
  gold: LoadedGoldSet,
  files: readonly GoldFile[],
  options: NotesEvalOptions,
  progress: (done: number, path: string) => void,
): Promise<IncrementalRun> {
  const project = 'gold-incremental';
  const sources: string[] = [];
  const parts: IncrementalRun['parts'] = [];
  for (const [i, file] of files.entries()) {
    const transcript = await copyTranscript(
      resolve(gold.transcriptsDir, file.path),
      join(engine.paths.root, 'transcripts', project, file.path),
      file.lines,
    );
    sources.push(`${file.kind}:${transcript}`);
    await writeQueries(engine.paths.queriesDir, project, gold, sources);
    const config = loadStandingQueries(engine.paths.queriesDir, project, { config: {} });
    await ingest({ engine, config, controller: options.controller, tokenizer: options.tokenizer });
    const synthesis = await synthesize({
      engine,
      config,
      controller: options.synthesisController ?? options.controller,
      tokenizer: options.tokenizer,
    });
    parts.push({ path: file.path, steps: synthesis.chunksSeen, updates: synthesis.chunksUsed });
    progress(i + 1, file.path);
  }
  const keys = [...gold.queries.map((q) => q.id), SYNTHESIS_KEY];
  const { notes, runs } = await engine.readCaughtUp([project], () =>
    readNotes(itemStorePath(engine.paths.stateDir), project, keys, options.tokenizer),
  );
  const l1 = gold.queries.flatMap((q) => notes[q.id] ?? []);
  const l2 = notes[SYNTHESIS_KEY] ?? [];
  return {
    project,
    parts,
    runs,
    l2_lines: l2.length,
    l2_lines_unbacked: l2.filter((line) => !l1.some((held) => nearDuplicate(line, held))).length,
  };
}

/** queries/<project>.yaml reading `sources`; JSON is YAML, so no YAML writer is needed here. */
async function writeQueries(
  dir: string,
  project: string,
  gold: LoadedGoldSet,
  sources: readonly string[],
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const config = {
    project,
    sources,
    queries: gold.queries,
    synthesis: gold.synthesis,
  };
  await writeFile(join(dir, `${project}.yaml`), `${JSON.stringify(config, null, 2)}\n`);
}

function readNotes(
  path: string,
  project: string,
  keys: readonly string[],
  tokenizer: Tokenizer,
): { notes: Record<string, string[]>; runs: Record<string, NoteRun> } {
  const store = openItemStore(path);
  try {
    const notes: Record<string, string[]> = {};
    const runs: Record<string, NoteRun> = {};
    for (const key of keys) {
      const queryId = key === SYNTHESIS_KEY ? null : key;
      notes[key] = memoryLines(store.memoryHead(project, queryId)?.text ?? '');
      runs[key] = noteRun(store, project, queryId, tokenizer);
    }
    return { notes, runs };
  } finally {
    store.close();
  }
}

function noteRun(
  store: ItemStore,
  project: string,
  queryId: string | null,
  tokenizer: Tokenizer,
): NoteRun {
  const rows = store.runs(project, queryId);
  const seen = rows.reduce((n, r) => n + (r.chunks_seen ?? 0), 0);
  const used = rows.reduce((n, r) => n + (r.chunks_used ?? 0), 0);
  const chain = store
    .nodes({
      project,
      levels: [queryId === null ? 'L2' : 'L1'],
      kind: 'memory',
      includeSuperseded: true,
    })
    .filter((node) => node.query_id === queryId)
    .sort((a, b) => a.seq - b.seq);
  return {
    chunks_seen: seen,
    chunks_used: used,
    update_rate: seen === 0 ? 0 : round4(used / seen),
    memory_tokens_over_t: chain.map((node) => tokenizer.count(node.text)),
  };
}
