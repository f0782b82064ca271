import { isMemError, type MemConfig } from '@mem/core';
import type { Engine } from '@mem/engine';
import { Worker } from 'node:worker_threads';
import type { JobFinish, JobProgress, JobSpec } from './job-run.js';
import type { FromWorker, ToWorker, WorkerInput } from './worker-messages.js';

/**
 * The worker's built file. Trigger: this module was loaded from src/ (vitest runs the
 * TypeScript sources). Why: a worker thread is plain node, which cannot load .ts. Outcome: the
 * file `npx tsc -b` built under dist/, as the tests' child processes use.
 */
function workerUrl(): URL {
  const here = new URL('./job-worker.js', import.meta.url);
  return here.pathname.includes('/ingest/src/jobs/')
    ? new URL(here.href.replace('/ingest/src/jobs/', '/ingest/dist/jobs/'))
    : here;
}

/**
 * The parent's node flags less the "mem-source" export condition: a worker inherits them, and
 * under that condition the built worker would import the workspace's .ts sources.
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if ((arg === '--conditions' || arg === '-C') && args[i + 1] === 'mem-source') i += 1;
    else if (arg !== '--conditions=mem-source' && arg !== '-C=mem-source') out.push(arg);
  }
  return out;
}

/**
 * Runs one job on a worker thread and answers its catch-up requests with this thread's engine
 * (the one process-wide owner of the projections). Resolves with the job's finish; a worker
 * that dies without one is a failed job, masked to INTERNAL (the cause goes to `onError`).
 */
export function runOnWorkerThread(
  engine: Engine,
  spec: JobSpec,
  config: MemConfig,
  onProgress: (progress: JobProgress) => void,
  onError: (error: unknown) => void,
): Promise<JobFinish> {
  const input: WorkerInput = { root: engine.paths.root, config, ...spec };
  const worker = new Worker(workerUrl(), { workerData: input, execArgv: workerExecArgv() });
  return new Promise<JobFinish>((resolve) => {
    let finish: JobFinish | undefined;
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'progress') onProgress(message.progress);
      else if (message.type === 'finished') finish = message.finish;
      else {
        const reply = (answer: ToWorker) => worker.postMessage(answer);
        engine.catchUp(message.projects ?? undefined).then(
          () => reply({ id: message.id }),
          (error: unknown) =>
            reply({
              id: message.id,
              error: isMemError(error)
                ? { code: error.code, message: error.message }
                : { code: 'INTERNAL', message: (error as Error).message },
            }),
        );
      }
    });
    worker.on('error', (error) => onError(error));
    worker.on('exit', (code) => {
      if (finish) return resolve(finish);
      onError(
        new Error(`the ingest worker of ${spec.jobId} exited (code ${code}) without finishing`),
      );
      resolve({
        status: 'failed',
        chunks: 0,
        appended: 0,
        error: { code: 'INTERNAL', message: 'the job failed unexpectedly' },
      });
    });
  });
}
