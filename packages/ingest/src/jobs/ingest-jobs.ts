import type { MemConfig, Writer } from '@mem/core';
import { ingestJobLock, type Engine } from '@mem/engine';
import type { IngestJobRow } from '@mem/projector-sqlite';
import type { JobProgress } from './job-run.js';
import { runOnWorkerThread } from './job-thread.js';

/** A job this process knows to be waiting or running: process state, never stored. */
export interface LiveJob {
  project: string;
  jobId: string;
  acceptedSeq: number;
  state: 'queued' | 'running';
  progress: JobProgress;
}

export interface IngestJobsOptions {
  engine: Engine;
  /** A job's row in the control store as of now (the surface keeps that store current). */
  findJob: (jobId: string) => Promise<IngestJobRow | undefined>;
  config: MemConfig;
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
 * Re-running a job that died mid-way is safe: each query reads only chunks it has not seen,
 * and the finish counts what the earlier attempt wrote (see job-run.ts).
 */
export class IngestJobs {
  private readonly live = new Map<string, LiveJob>();
  private readonly chains = new Map<string, Promise<void>>();
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
    const job: LiveJob = {
      project,
      jobId,
      acceptedSeq,
      state: 'queued',
      progress: { records: 0, chunks: 0, used: 0 },
    };
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
   * Runs one job under a per-project cross-process lock. Trigger: two processes serving one data root
   * (`mem serve` and `mem mcp`) both resume the same unfinished job. Why: two gated loops over
   * the same chunks would each write a run. Outcome: the second waits, then finds the job
   * finished in the log and skips it.
   */
  private async runOne(job: LiveJob): Promise<void> {
    if (this.stopped) return;
    await this.options.engine.exclusive(ingestJobLock(job.project), async () => {
      await this.options.engine.catchUp([job.project]);
      const row = await this.options.findJob(job.jobId);
      if (this.stopped || (row && row.status !== null)) {
        if (row?.status) this.live.delete(job.jobId);
        return;
      }
      await this.runLocked(job);
    });
  }

  /**
   * Runs the job on a worker thread (see job-worker.ts): this thread keeps answering requests
   * and stays the only one that projects. The finish is appended here, after the worker's
   * events, so the job is finished in the log only once all of its work is.
   */
  private async runLocked(job: LiveJob): Promise<void> {
    job.state = 'running';
    const { engine } = this.options;
    const finish = await runOnWorkerThread(
      engine,
      { project: job.project, jobId: job.jobId, acceptedSeq: job.acceptedSeq },
      this.options.config,
      (progress) => {
        job.progress = progress;
      },
      (error) => this.options.onError?.(job, error),
    );
    try {
      await engine.append(
        job.project,
        [{ type: 'ingest_finished', job_id: job.jobId, ...finish }],
        await this.writerOf(job),
      );
    } catch (error) {
      // The job stays unfinished in the log, so the next start runs it again.
      this.options.onError?.(job, error);
    } finally {
      this.live.delete(job.jobId);
    }
  }

  /** The finish is written as the writer of the acceptance (who asked for the job). */
  private async writerOf(job: LiveJob): Promise<Writer> {
    for await (const { event } of this.options.engine.read(job.project, {
      fromSeq: job.acceptedSeq,
    })) {
      if (event.type === 'ingest_accepted' && event.job_id === job.jobId) return event.writer;
      break;
    }
    return { kind: 'api' };
  }
}
