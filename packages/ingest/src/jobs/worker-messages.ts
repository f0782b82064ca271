import type { MemConfig } from '@mem/core';
import type { JobFinish, JobProgress } from './job-run.js';

/** What a job's worker thread is started with. */
export interface WorkerInput {
  root: string;
  config: MemConfig;
  project: string;
  jobId: string;
  acceptedSeq: number;
}

/** Worker → main: a catch-up request, progress, or the job's finish. */
export type FromWorker =
  | { type: 'catch-up'; id: number; projects: string[] | null }
  | { type: 'progress'; progress: JobProgress }
  | { type: 'finished'; finish: JobFinish };

/** Main → worker: the answer to a catch-up request. */
export interface ToWorker {
  id: number;
  error?: { code: string; message: string };
}
