import { qwenTokenizer, type Tokenizer } from '@mem/chunk';
import { Engine } from '@mem/engine';
import type { IngestEngine } from '../ingest.js';
import { parentPort, workerData } from 'node:worker_threads';
import { runJob, type JobSpec } from './job-run.js';
import type { FromWorker, ToWorker, WorkerInput } from './worker-messages.js';

/*
 * The thread an ingest job runs on: chunking, tokenizing and the gate are CPU work that would
 * otherwise hold the server's event loop (a 10 MB record blocked /health for seconds). It
 * appends to the log itself (the per-project log lock is a kernel OFD lock, so this thread and
 * the main one exclude each other like two processes), but never projects: the SQLite store and
 * PGlite belong to the main thread, which catches up when asked.
 */

const port = parentPort;
if (!port) throw new Error('job-worker runs only as a worker thread');
const input = workerData as WorkerInput;

let nextId = 0;
const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
port.on('message', (message: ToWorker) => {
  const entry = waiting.get(message.id);
  if (!entry) return;
  waiting.delete(message.id);
  if (message.error === undefined) entry.resolve();
  else entry.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
});

const post = (message: FromWorker) => port.postMessage(message);

/** Asks the main thread to catch the projections up; resolves when it has. */
function catchUpOnMain(projects: readonly string[] | undefined): Promise<void> {
  const id = nextId++;
  return new Promise<void>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    post({ type: 'catch-up', id, projects: projects ? [...projects] : null });
  });
}

const local = new Engine({ root: input.root, projectors: [] });
const engine: IngestEngine = {
  paths: local.paths,
  // Appends never catch up here: this engine has no projectors; the main thread projects.
  append: (project, payloads, writer, options) =>
    local.append(project, payloads, writer, { ...options, catchUp: 'later' }),
  read: (project, options) => local.read(project, options),
  tombstones: (project) => local.tombstones(project),
  exclusive: (name, fn) => local.exclusive(name, fn),
  readCaughtUp: async (projects, read) => {
    await catchUpOnMain(projects);
    return read();
  },
  catchUp: async (projects) => {
    await catchUpOnMain(projects);
    return { applied: [] };
  },
  // None of its own: the main thread's catch-up covers them all.
  projectorNames: () => [],
};

let tokenizer: Tokenizer | undefined;
const spec: JobSpec = {
  project: input.project,
  jobId: input.jobId,
  acceptedSeq: input.acceptedSeq,
};
const finish = await runJob(
  engine,
  spec,
  input.config,
  () => (tokenizer ??= qwenTokenizer()),
  (progress) => post({ type: 'progress', progress }),
);
post({ type: 'finished', finish });
port.close();
