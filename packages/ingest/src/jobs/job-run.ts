import type { Tokenizer } from '@mem/chunk';
import { isMemError, type EventOf, type MemConfig } from '@mem/core';
import { itemStorePath, openControlStore } from '@mem/projector-sqlite';
import { existsSync } from 'node:fs';
import { chooseController } from '../controllers.js';
import { ingest, type IngestEngine } from '../ingest.js';
import { ITEM_STORE_READS } from '../prior-state.js';
import { loadStandingQueries } from '../standing-queries.js';
import { newRecords, occurrenceKeys } from './record-identity.js';
import { acceptedRecordsSource } from './records-source.js';

/** What a running job has done so far, earlier attempts (before a restart) included. */
export interface JobProgress {
  records: number;
  chunks: number;
  used: number;
}

/** The payload of the job's ingest_finished event, less its job id. */
export interface JobFinish {
  status: 'done' | 'failed';
  chunks: number;
  appended: number;
  skipped?: number;
  error?: { code: string; message: string };
}

export interface JobSpec {
  project: string;
  jobId: string;
  acceptedSeq: number;
}

/** A job's runs are labelled with its id, so a resumed job finds what its earlier attempts wrote. */
export const jobRunLabel = (jobId: string) => jobId;

/**
 * Runs one accepted job to its finish: the records earlier done jobs under the same source
 * already ingested are left out (by identity), the rest go through the gated loop. A job
 * resumed after a restart re-chunks its records (the chunks its earlier attempt gated are
 * skipped by sha) and adds what that attempt appended, so the finish reports the whole job.
 */
export async function runJob(
  engine: IngestEngine,
  spec: JobSpec,
  memConfig: MemConfig,
  tokenizer: () => Tokenizer,
  onProgress: (progress: JobProgress) => void,
): Promise<JobFinish> {
  let progress: JobProgress = { records: 0, chunks: 0, used: 0 };
  try {
    const accepted = await acceptedEvent(engine, spec);
    const known = await knownRecords(engine, spec, accepted.source);
    const { fresh, skipped } = newRecords(accepted.records, known);
    const earlier = await earlierAttempts(engine, spec);
    progress = { records: skipped, chunks: 0, used: earlier.used };
    onProgress(progress);
    const skippedField = skipped > 0 ? { skipped } : {};
    if (fresh.length === 0)
      return { status: 'done', chunks: 0, appended: earlier.appended, ...skippedField };
    const config = loadStandingQueries(engine.paths.queriesDir, spec.project, {
      config: memConfig,
      resolveSources: false,
    });
    const words = tokenizer();
    const kind = accepted.format === 'records' ? 'loop' : accepted.format;
    const report = await ingest({
      engine,
      config,
      sources: [
        { entry: `http:${accepted.ingest_id}`, source: acceptedRecordsSource(fresh, kind) },
      ],
      resumeByPosition: false,
      runLabel: jobRunLabel(spec.jobId),
      controller: chooseController(undefined, words, memConfig),
      tokenizer: words,
      writer: accepted.writer,
      onProgress: (p) => {
        progress = { records: skipped + p.records, chunks: p.chunks, used: earlier.used + p.used };
        onProgress(progress);
      },
    });
    return {
      status: 'done',
      chunks: report.chunks,
      appended: earlier.appended + report.appended,
      ...skippedField,
    };
  } catch (error) {
    return {
      status: 'failed',
      chunks: progress.chunks,
      appended: 0,
      // What a caller may see: a MemError's code and message; anything else is masked.
      error: isMemError(error)
        ? { code: error.code, message: error.message }
        : { code: 'INTERNAL', message: 'the job failed unexpectedly' },
    };
  }
}

async function acceptedEvent(
  engine: IngestEngine,
  spec: JobSpec,
): Promise<EventOf<'ingest_accepted'>> {
  for await (const { event } of engine.read(spec.project, { fromSeq: spec.acceptedSeq })) {
    if (event.type === 'ingest_accepted' && event.job_id === spec.jobId) return event;
    break;
  }
  throw new Error(`${spec.project} seq ${spec.acceptedSeq} is not the acceptance of ${spec.jobId}`);
}

/** Identities of the records every earlier done job of `source` carried. */
async function knownRecords(
  engine: IngestEngine,
  spec: JobSpec,
  source: string,
): Promise<Set<string>> {
  const store = itemStorePath(engine.paths.stateDir);
  const earlier = await engine.readCaughtUp(
    [spec.project],
    () => {
      if (!existsSync(store)) return [];
      const control = openControlStore(store);
      try {
        return control.doneIngestJobs(spec.project, source, spec.acceptedSeq);
      } finally {
        control.close();
      }
    },
    { reads: ITEM_STORE_READS },
  );
  const known = new Set<string>();
  for (const job of earlier) {
    const event = await acceptedEvent(engine, {
      project: spec.project,
      jobId: job.job_id,
      acceptedSeq: job.accepted_seq,
    });
    for (const key of occurrenceKeys(event.records)) known.add(key);
  }
  return known;
}

/** Events and memories the job's earlier attempts appended (runs labelled with its id). */
async function earlierAttempts(
  engine: IngestEngine,
  spec: JobSpec,
): Promise<{ appended: number; used: number }> {
  const marker = `@${jobRunLabel(spec.jobId)}-`;
  let appended = 0;
  let used = 0;
  for await (const { event } of engine.read(spec.project, { fromSeq: spec.acceptedSeq + 1 })) {
    const runId = (event as { run_id?: unknown }).run_id;
    if (typeof runId !== 'string' || !runId.includes(marker)) continue;
    appended += 1;
    if (event.type === 'memory') used += 1;
  }
  return { appended, used };
}
