import type { Engine } from '@mem/engine';
import type {
  AcceptRequest,
  Accepted,
  IngestJobs,
  IngestJobsOptions,
  JobAcceptance,
  LiveJob,
} from '@mem/ingest';
import type { IngestJobRow } from '@mem/projector-sqlite';
import { loadIngest } from './ingest-module.js';

/**
 * The ingest job runner and its acceptance, built the first time a job is accepted or resumed
 * (see ingest-module.ts for why). Until then no job is live in this process, so the live
 * state reads are answered without loading: nothing queued, nothing running.
 */
export class IngestRuntime {
  private loading: Promise<{ jobs: IngestJobs; acceptance: JobAcceptance }> | undefined;
  private jobs: IngestJobs | undefined;
  private stopped = false;

  constructor(private readonly options: IngestJobsOptions & { engine: Engine }) {}

  /** The live state of a job, or undefined when it is finished or this process never saw it. */
  get(jobId: string): LiveJob | undefined {
    return this.jobs?.get(jobId);
  }

  /** Live jobs of a project, by state. */
  counts(project: string): { queued: number; running: number } {
    return this.jobs?.counts(project) ?? { queued: 0, running: 0 };
  }

  /** Accepts an ingest once per ingest_id and queues its job (JobAcceptance.accept). */
  async accept(request: AcceptRequest): Promise<Accepted> {
    return (await this.load()).acceptance.accept(request);
  }

  /** Re-queues the jobs the log accepted and never finished; loads nothing when there are none. */
  async resume(unfinished: readonly IngestJobRow[]): Promise<void> {
    if (unfinished.length > 0) (await this.load()).jobs.resume(unfinished);
  }

  /** Resolves when every queued job has run (tests, graceful shutdown). */
  async idle(): Promise<void> {
    if (this.loading) await (await this.loading).jobs.idle();
  }

  /** Runs no further job, also when the runner is built after this call. */
  stop(): void {
    this.stopped = true;
    this.jobs?.stop();
  }

  private load(): Promise<{ jobs: IngestJobs; acceptance: JobAcceptance }> {
    this.loading ??= loadIngest().then(({ IngestJobs, JobAcceptance }) => {
      const jobs = new IngestJobs(this.options);
      if (this.stopped) jobs.stop();
      this.jobs = jobs;
      return { jobs, acceptance: new JobAcceptance(this.options.engine, jobs) };
    });
    return this.loading;
  }
}
