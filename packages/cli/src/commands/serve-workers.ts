import cluster, { type Worker } from 'node:cluster';
import { MemError, type MemConfig } from '@mem/core';
import type { CliIO } from '../io.js';
import { untilSignal } from '../signals.js';

/**
 * `mem serve --workers N`: N server processes on one port, through Node's cluster module (the
 * primary owns the listening socket and hands connections round-robin to the workers). Why not
 * SO_REUSEPORT: `reusePort` came with Node 22.12/23.1, and this project runs on Node 20. Each
 * worker is a whole `mem serve` on the same data root: appends are serialised by the log's
 * kernel lock, catch-ups by the projection lock, and a worker catches up what the others wrote
 * before it answers a read (the registry's ProjectionStores).
 */

/** True in a worker forked by `serveWorkers`: it serves as a single `mem serve` does. */
export function isServeWorker(): boolean {
  return cluster.isWorker;
}

/**
 * Ends a worker's part once it has stopped: its IPC channel to the primary would otherwise keep
 * the process alive after the server and the registry closed.
 */
export function leaveCluster(): void {
  if (cluster.isWorker) cluster.worker?.disconnect();
}

/**
 * Refuses N > 1 on the embedded default: PGlite serves one process (its directory is locked by
 * the first that opens it), so N-1 workers would answer without vectors. One owner serving
 * vectors to the others would be a Postgres server of our own; DATABASE_URL is that, done well.
 */
export function assertWorkersPossible(workers: number, config: MemConfig): void {
  if (workers > 1 && !config.DATABASE_URL) {
    throw new MemError(
      'CONFIG_INVALID',
      `--workers ${workers}: the embedded pgvector projection (PGlite) is open in one process at a time; set DATABASE_URL to a Postgres every worker shares, or run --workers 1`,
      { field: 'workers', variable: 'DATABASE_URL' },
    );
  }
}

/**
 * Runs in the primary: forks `workers` copies of this command, waits until all listen (one port
 * for all), prints one line, and on SIGINT/SIGTERM stops them and waits for them. A worker that
 * exits before it listens fails the start (its stderr said why); one that dies later is replaced.
 */
export async function serveWorkers(io: CliIO, workers: number, describe: string): Promise<void> {
  cluster.setupPrimary({ exec: process.argv[1]!, args: process.argv.slice(2) });
  let stopping = false;
  const listening = new Set<Worker>();
  let started!: (url: string) => void;
  let failed!: (error: MemError) => void;
  const ready = new Promise<string>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  let url = '';
  cluster.on('listening', (worker, address) => {
    listening.add(worker);
    const host = address.address?.includes(':') ? `[${address.address}]` : address.address;
    url = `http://${host}:${address.port}`;
    if (listening.size === workers) started(url);
  });
  cluster.on('exit', (worker, code, signal) => {
    const was = listening.delete(worker);
    if (stopping) return;
    if (!was) {
      failed(
        new MemError(
          'IO_FAILED',
          `mem serve: worker ${worker.id} exited (${signal ?? code}) before it listened`,
          { worker: worker.id, code, signal },
        ),
      );
      return;
    }
    // Trigger: a worker died while serving. Outcome: the others go on; a new one takes its place.
    io.stderr.write(
      `mem serve: worker ${worker.id} exited (${signal ?? code}); starting another\n`,
    );
    cluster.fork();
  });
  for (let i = 0; i < workers; i += 1) cluster.fork();
  try {
    await ready;
  } catch (error) {
    stopping = true;
    await stopAll();
    throw error;
  }
  io.stderr.write(`mem serve: listening on ${url} (${workers} workers, ${describe})\n`);
  const signal = await untilSignal();
  io.stderr.write(`mem serve: ${signal}, stopping ${workers} workers\n`);
  stopping = true;
  await stopAll();
}

/** SIGTERM to every worker (each stops as a single `mem serve` does), resolved when all exited. */
async function stopAll(): Promise<void> {
  const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  await Promise.all(
    alive.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          worker.process.kill('SIGTERM');
        }),
    ),
  );
}
