import { qwenTokenizer, type Tokenizer } from '@mem/chunk';
import { isMemError, type EventOf, type Writer } from '@mem/core';
import type { Engine } from '@mem/engine';
import { chooseController, ingest, loadStandingQueries } from '@mem/ingest';
import { withFileLock } from '@mem/log';
import type { IngestJobRow } from '@mem/projector-sqlite';
import { join } from 'node:path';
import type { ProjectionStores } from '../stores.js';
import { acceptedRecordsSource } from './records-source.js';

/** A job this process knows to be waiting or running: process state, never stored. */
export interface LiveJob {
  project: string;
  jobId: string;
  acceptedSeq: number;
  state: 'queued' | 'running';
  progress: { chunks: number; used: number };
}

export interface IngestJobsOptions {
  engine: Engine;
  stores: ProjectionStores;
  env: NodeJS.ProcessEnv;
  /** False: accept and record jobs, run none (`mem serve --no-jobs`); another process runs them. */
  run: boolean;
  /** Where a job's failure is reported besides its ingest_finished event (server log). */
  onError?: (job: LiveJob, error: unknown) => void;
}

/**
 * Runs accepted ingest jobs, one at a time per project (the gated loop is sequential per
 * project), in acceptance order. Acceptance and completion are log events; which job is
 * queued or running is only this process's state. On start, `resume` re-queues every job
 * the log accepted and never finished: a job accepted before a restart completes after it.
 * Re-running a job that died mid-way is safe: each query reads only chunks it has not seen.
 */
export class IngestJobs {
  private readonly live = new Map<string, LiveJob>();
  private readonly chains = new Map<string, Promise<void>>();
  private tokenizer: Tokenizer | undefined;
  private stopped = false;

  constructor(private readonly options: IngestJobsOptions) {}

  /** Whether this process runs jobs. */
  get running(): boolean {
    return this.options.run && !this.stopped;
  }

  /** The live state of a job, or undefined when it is finished or this process never saw it. */
  get(jobId: string): LiveJob | undefined {
    return this.live.get(jobId);
  }

  /** Live jobs of a project, by state. */
  counts(project: string): { queued: number; running: number } {
    let queued = 0;
    let running = 0;
    for (const job of this.live.values()) {
      if (job.project !== project) continue;
      if (job.state === 'running') running += 1;
      else queued += 1;
    }
    return { queued, running };
  }

  /** Queues an accepted job behind the project's earlier ones. */
  enqueue(project: string, jobId: string, acceptedSeq: number): void {
    if (this.live.has(jobId)) return;
    const job: LiveJob = { project, jobId, acceptedSeq, state: 'queued', progress: { chunks: 0, used: 0 } };
    this.live.set(jobId, job);
    if (!this.running) return;
    const previous = this.chains.get(project) ?? Promise.resolve();
    const next = previous.then(() => this.runOne(job));
    this.chains.set(project, next);
    void next.finally(() => {
      if (this.chains.get(project) === next) this.chains.delete(project);
    });
  }

  /** Re-queues the jobs the log accepted and never finished, in acceptance order. */
  resume(unfinished: readonly IngestJobRow[]): void {
    for (const row of unfinished) this.enqueue(row.project, row.job_id, row.accepted_seq);
  }

  /** Resolves when every queued job has run (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  /** Runs no further job; the running one finishes, the queued ones resume on the next start. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Runs one job under a per-project file lock. Trigger: two processes serving one data root
   * (`mem serve` and `mem mcp`) both resume the same unfinished job. Why: two gated loops over
   * the same chunks would each write a run. Outcome: the second waits, then finds the job
   * finished in the log and skips it.
   */
  private async runOne(job: LiveJob): Promise<void> {
    if (this.stopped) return;
    const lock = join(this.options.engine.paths.stateDir, 'cache', 'jobs', `${job.project}.lock`);
    await withFileLock(lock, async () => {
      await this.options.engine.catchUp([job.project]);
      const row = (await this.options.stores.fresh()).control.ingestJob(job.jobId);
      if (this.stopped || (row && row.status !== null)) {
        if (row?.status) this.live.delete(job.jobId);
        return;
      }
      await this.runLocked(job);
    });
  }

  private async runLocked(job: LiveJob): Promise<void> {
    job.state = 'running';
    const { engine } = this.options;
    let accepted: EventOf<'ingest_accepted'> | undefined;
    let finish: { status: 'done' | 'failed'; chunks: number; appended: number; error?: { code: string; message: string } };
    try {
      accepted = await this.acceptedEvent(job);
      const config = loadStandingQueries(engine.paths.queriesDir, job.project, { env: this.options.env, resolveSources: false });
      this.tokenizer ??= qwenTokenizer();
      const kind = accepted.format === 'records' ? 'loop' : accepted.format;
      const report = await ingest({
        engine,
        config,
        sources: [{ entry: `http:${accepted.ingest_id}`, source: acceptedRecordsSource(accepted.records, kind) }],
        controller: chooseController(undefined, this.tokenizer, this.options.env),
        tokenizer: this.tokenizer,
        writer: accepted.writer,
        onProgress: (p) => {
          job.progress = { chunks: p.chunks, used: p.used };
        },
      });
      finish = { status: 'done', chunks: report.chunks, appended: report.appended };
    } catch (error) {
      this.options.onError?.(job, error);
      finish = {
        status: 'failed',
        chunks: job.progress.chunks,
        appended: 0,
        // What a caller may see: a MemError's code and message; anything else is masked.
        error: isMemError(error) ? { code: error.code, message: error.message } : { code: 'INTERNAL', message: 'the job failed unexpectedly' },
      };
    }
    try {
      const writer: Writer = accepted?.writer ?? { kind: 'api' };
      await engine.append(job.project, [{ type: 'ingest_finished', job_id: job.jobId, ...finish }], writer);
    } catch (error) {
      // The job stays unfinished in the log, so the next start runs it again.
      this.options.onError?.(job, error);
    } finally {
      this.live.delete(job.jobId);
    }
  }

  private async acceptedEvent(job: LiveJob): Promise<EventOf<'ingest_accepted'>> {
    for await (const { event } of this.options.engine.log.read(job.project, { fromSeq: job.acceptedSeq })) {
      if (event.type === 'ingest_accepted' && event.job_id === job.jobId) return event;
      break;
    }
    throw new Error(`${job.project} seq ${job.acceptedSeq} is not the acceptance of ${job.jobId}`);
  }
}
