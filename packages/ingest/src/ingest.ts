import { chunks, chunkPolicy, type Tokenizer } from '@mem/chunk';
import type { Payload, Writer } from '@mem/core';
import { extractionLock, type Engine } from '@mem/engine';
import { GatedRun, type Controller, type RunSummary } from '@mem/extractor';
import type { SourceStats, TranscriptSource } from '@mem/sources';
import { DerivedManifest } from './derived.js';
import { catchUpEach } from './final-catch-up.js';
import { skillArtifactTexts } from './skill-artifacts.js';
import { ITEM_STORE_READS, priorState, referenceTexts, withItemStore } from './prior-state.js';
import { newRunId } from './run-id.js';
import { selectQueries, type StandingQueries } from './standing-queries.js';
import { stepFromChunk } from './steps.js';
import { transcriptSource } from './transcripts.js';

export interface IngestProgress {
  /** Records chunked so far: per source, up to the end of its newest chunk, summed. */
  records: number;
  chunks: number;
  used: number;
  source: string;
}

/**
 * What ingest needs of an engine: a worker thread hands it one whose catch-ups are the main
 * thread's (the process that holds the projections), with the log and locks of its own.
 */
export type IngestEngine = Pick<
  Engine,
  | 'paths'
  | 'append'
  | 'read'
  | 'tombstones'
  | 'exclusive'
  | 'readCaughtUp'
  | 'catchUp'
  | 'projectorNames'
>;

export interface IngestOptions {
  engine: IngestEngine;
  config: StandingQueries;
  /** Only this query (default: all of the project's). */
  queryId?: string;
  /**
   * Read these instead of the standing-query file's sources: e.g. a transcript or records
   * posted over HTTP, wrapped by @mem/sources' transcriptFromText. Same chunker, same loop.
   */
  sources?: readonly { entry: string; source: TranscriptSource }[];
  /**
   * Skip each source's records up to where every query has read it (default true): a local
   * transcript file only grows, so its old records are where they were. False for records whose
   * position means nothing across calls (an HTTP job's batch): the caller decides what is new.
   */
  resumeByPosition?: boolean;
  /** Added to each run id (`<query>@<label>-…`), so the runs of one job can be found in the log. */
  runLabel?: string;
  controller: Controller;
  tokenizer: Tokenizer;
  writer?: Writer;
  onProgress?: (progress: IngestProgress) => void;
  now?: () => Date;
}

export interface QueryReport extends RunSummary {
  question: string;
  /** chunks_used / chunks_seen of this run (0 when it saw nothing). */
  updateRate: number;
}

export interface IngestReport {
  project: string;
  controller: string;
  queries: QueryReport[];
  sources: { entry: string; stats: SourceStats }[];
  chunks: number;
  derivedArtifacts: number;
  appended: number;
}

/**
 * `mem ingest`: reads every source of the project once, chunks it, and offers each chunk to
 * one gated run per standing query. Each run continues from its query's last memory and skips
 * chunks that query has already seen, so a re-run over unchanged sources writes nothing.
 * Events go to the log as they are decided (one append per chunk); the projections are
 * caught up once, at the end.
 */
export async function ingest(options: IngestOptions): Promise<IngestReport> {
  const queries = selectQueries(options.config, options.queryId);
  // One extractor per project at a time: a second would read the same prior state and write a
  // competing memory chain.
  return options.engine.exclusive(extractionLock(options.config.project), () =>
    ingestLocked(options, queries),
  );
}

async function ingestLocked(
  options: IngestOptions,
  queries: StandingQueries['queries'],
): Promise<IngestReport> {
  const { engine, config, controller, tokenizer } = options;
  const writer = options.writer ?? { kind: 'extractor' };
  const project = config.project;

  const manifest = new DerivedManifest();
  const skipBefore = new Map<string, number>();
  // Read under the extraction lock, before any run starts: a line forgotten from here on is
  // refused by the append itself (FORGOTTEN), one forgotten before is dropped by the run.
  const tombstones = await engine.tombstones(project);
  const refuses = (line: string) => tombstones.match(line) !== null;
  for (const text of await skillArtifactTexts(engine.read(project))) manifest.register(text);
  const runs = await engine.readCaughtUp(
    [project],
    () =>
      withItemStore(engine.paths.stateDir, (store) => {
        for (const text of referenceTexts(store, project)) manifest.register(text);
        const priors = queries.map((query) => priorState(store, project, query.id));
        // Chunk each source from where every query has read it up to: a transcript that grew since
        // the last ingest is read from its new records on, not re-chunked (and re-gated) from its
        // old tail. A query that has read less sees the rest; chunks it saw before are skipped by sha.
        const positions =
          options.resumeByPosition === false ? [] : priors.flatMap((p) => Object.keys(p.progress));
        for (const source of new Set(positions)) {
          skipBefore.set(source, Math.min(...priors.map((p) => p.progress[source] ?? 0)));
        }
        return queries.map((query, i) => {
          const prior = priors[i]!;
          return new GatedRun({
            level: 'L1',
            runId: newRunId(
              options.runLabel !== undefined ? `${query.id}@${options.runLabel}` : query.id,
              options.now?.(),
            ),
            queryId: query.id,
            question: query.question,
            controller,
            tokenizer,
            memoryBudget: config.memoryBudget,
            chunkTokens: config.chunkTokens,
            actOnExit: false,
            previous: prior.previous,
            seen: prior.seen,
            refuses,
          });
        });
      }),
    // Only SQLite: the embedded Postgres opens at the final catch-up, not for the whole loop.
    { reads: ITEM_STORE_READS },
  );

  let appended = 0;
  let chunkCount = 0;
  let used = 0;
  const recordsRead = new Map<string, number>();
  let records = 0;
  const append = async (payloads: Payload[]) => {
    if (payloads.length === 0) return;
    // Caught up once, at the end (below), not once per chunk.
    const result = await engine.append(project, payloads, writer, { catchUp: 'later' });
    appended += result.appended;
  };
  const policy = chunkPolicy({ maxTokens: config.chunkTokens });
  const sources: IngestReport['sources'] = [];
  const inputs =
    options.sources ??
    config.sources.map((resolved) => ({
      entry: resolved.entry,
      source: transcriptSource(resolved),
    }));
  for (const { entry, source } of inputs) {
    for await (const chunk of chunks(source, policy, tokenizer, { skipBefore })) {
      chunkCount += 1;
      const read = recordsRead.get(chunk.source) ?? 0;
      if (chunk.span[1] > read) {
        records += chunk.span[1] - read;
        recordsRead.set(chunk.source, chunk.span[1]);
      }
      const step = stepFromChunk(chunk, manifest.matches(chunk.text));
      const batch: Payload[] = [];
      for (const run of runs) {
        const events = await run.offer(step);
        used += events.filter((e) => e.type === 'memory').length;
        batch.push(...events);
      }
      await append(batch);
      options.onProgress?.({ records, chunks: chunkCount, used, source: entry });
    }
    sources.push({ entry, stats: source.stats() });
  }
  await append(runs.flatMap((run) => run.finish()));
  // One projection at a time, SQLite first: the embedded Postgres overlaps neither the SQLite
  // seal nor the vault's fold (final-catch-up.ts).
  await catchUpEach(engine, project);

  return {
    project,
    controller: controller.name,
    queries: runs.map((run, i) => {
      const summary = run.summary();
      return {
        ...summary,
        question: queries[i]!.question,
        updateRate: summary.chunksSeen > 0 ? summary.chunksUsed / summary.chunksSeen : 0,
      };
    }),
    sources,
    chunks: chunkCount,
    derivedArtifacts: manifest.artifacts,
    appended,
  };
}
