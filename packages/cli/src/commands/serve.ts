import { resolveDataRoot } from '@mem/engine';
import { cliConfig } from '../config.js';
import type { Command } from 'commander';
import { type GlobalOptions } from '../context.js';
import { UsageError } from '../exit.js';
import type { CliIO } from '../io.js';
import { openCliRegistry, type OpenedRegistry } from '../open-registry.js';
import type { WarmListener } from '../warm/warm-listener.js';
import { positiveIntFlag } from '../parse-flags.js';
import { untilSignal } from '../signals.js';
import {
  assertWorkersPossible,
  isServeWorker,
  leaveCluster,
  serveWorkers,
} from './serve-workers.js';

function limitFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new UsageError(
      `${flag}: expected a whole number (0 turns the limit off), got ${JSON.stringify(value)}`,
    );
  return Number(value);
}

export function registerServe(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description(
      'serve the memory over HTTP: every registry operation under /memory, tokens required (mem token mint)',
    )
    .requiredOption('--port <n>', 'port to listen on (0: any free port)')
    .option('--host <host>', 'address to bind (default 127.0.0.1: this machine only)', '127.0.0.1')
    .option(
      '--no-jobs',
      'accept ingest jobs but run none here (another mem serve or mem mcp on this data root runs them)',
    )
    .option(
      '--rate-burst <n>',
      'requests per second per token (default 10, $MEM_RATE_BURST; 0: off)',
    )
    .option(
      '--rate-ingest <n>',
      'ingest jobs per hour per token (default 100, $MEM_RATE_INGEST_PER_HOUR; 0: off)',
    )
    .option(
      '--rate-query <n>',
      'queries per hour per token (default 1000, $MEM_RATE_QUERY_PER_HOUR; 0: off)',
    )
    .option('--max-body <bytes>', 'largest ingest body in bytes (default 16 MiB)')
    .option('--quiet', 'no request log on stderr')
    .option(
      '--workers <n>',
      'server processes on the one port (default 1; more need DATABASE_URL: the embedded PGlite serves one process)',
    )
    .action(
      async (
        options: {
          port: string;
          host: string;
          jobs: boolean;
          rateBurst?: string;
          rateIngest?: string;
          rateQuery?: string;
          maxBody?: string;
          quiet?: boolean;
          workers?: string;
        },
        command: Command,
      ) => {
        if (!/^\d+$/.test(options.port) || Number(options.port) > 65535)
          throw new UsageError(`--port: expected 0-65535, got ${JSON.stringify(options.port)}`);
        // A flag wins over its variable; a bad flag is a usage error, a bad variable CONFIG_INVALID.
        const config = cliConfig(io);
        const rateLimits = {
          ...withValue(
            'burstPerSecond',
            limitFlag(options.rateBurst, '--rate-burst') ?? config.MEM_RATE_BURST,
          ),
          ...withValue(
            'ingestPerHour',
            limitFlag(options.rateIngest, '--rate-ingest') ?? config.MEM_RATE_INGEST_PER_HOUR,
          ),
          ...withValue(
            'queryPerHour',
            limitFlag(options.rateQuery, '--rate-query') ?? config.MEM_RATE_QUERY_PER_HOUR,
          ),
        };
        const maxBody = positiveIntFlag(options.maxBody, '--max-body');
        const workers = positiveIntFlag(options.workers, '--workers') ?? 1;
        if (workers > 1 && !isServeWorker()) {
          assertWorkersPossible(workers, config);
          const globals = command.optsWithGlobals<GlobalOptions>();
          const { root } = resolveDataRoot(cliConfig(io, globals), io.cwd);
          await serveWorkers(io, workers, `data root ${root}`);
          return;
        }
        const log = options.quiet ? undefined : (line: string) => io.stderr.write(`${line}\n`);
        const opened = await openCliRegistry(io, command.optsWithGlobals<GlobalOptions>(), {
          runJobs: options.jobs,
          log: (line) => io.stderr.write(`${line}\n`),
          // A write answers once SQLite and the vault hold it; pgvector catches up after the
          // answer, one catch-up at a time, so the next query rarely waits for the embedding.
          catchUpAfterWrites: true,
          // A `mem mcp` started first holds the embedded PGlite: each vector read tries to take it.
          reclaimVectors: true,
        });
        const reclaiming = reclaimVectors(io, opened);
        // Loaded here, not at startup: only `mem serve` needs the HTTP framework.
        const { startServer, RateLimiter, DEFAULT_RATE_LIMITS } = await import('@mem/server');
        // One limiter for the server's surfaces: a `mem mcp`'s reads forwarded on the warm
        // socket count against its token's limits, as its HTTP requests do.
        const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...rateLimits });
        const server = await startServer(opened.registry, {
          port: Number(options.port),
          host: options.host,
          limiter,
          ...(maxBody !== undefined ? { bodyLimits: { ingest: maxBody } } : {}),
          ...(log ? { log } : {}),
        });
        io.stderr.write(
          `mem serve: listening on ${server.url} (data root ${opened.registry.context.engine.paths.root}${options.jobs ? '' : ', jobs not run here'})\n`,
        );
        // Several workers would each want the one socket; the cluster's port serves them all.
        const warm =
          workers === 1
            ? await warmSocket(io, opened, command, (tokenId, operation) =>
                limiter.check(`token:${tokenId}`, operation),
              )
            : null;
        const signal = await untilSignal();
        io.stderr.write(`mem serve: ${signal}, stopping\n`);
        reclaiming.stop();
        await warm?.close();
        await server.close();
        opened.registry.context.jobs.stop();
        const idle = await Promise.race([
          opened.registry.context.jobs.idle().then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref()),
        ]);
        if (!idle) {
          // The running job is unfinished in the log: the next start runs it again, from its last memory.
          io.stderr.write(
            'mem serve: an ingest job was still running; it resumes on the next start\n',
          );
          process.exit(0);
        }
        await opened.close();
        leaveCluster();
      },
    );
}

/** How often a server without the embedded PGlite tries to take it (one lock attempt each time). */
export const RECLAIM_MS = 1000;

/**
 * Trigger: another process held the embedded PGlite when the server opened (a `mem mcp` the
 * agent runtime started first, a long `mem ingest`). Why: a server left keyword-only for its
 * lifetime answered every HTTP and CLI read without vectors. Outcome: every RECLAIM_MS one lock
 * attempt; when it is free (its holder let it go, exited or was killed), the server catches
 * pgvector up, opens it, and says so once. A read of the vectors tries too (open-registry.ts).
 */
function reclaimVectors(io: CliIO, opened: OpenedRegistry): { stop(): void } {
  if (!opened.vectorsHeld) return { stop: () => undefined };
  let trying = false;
  const timer = setInterval(() => {
    if (trying) return;
    trying = true;
    void (async () => {
      if (!opened.holdsVectors() && !(await opened.reopenVectors())) return;
      clearInterval(timer);
      io.stderr.write('mem serve: the embedded PGlite is free: vector recall is answered here\n');
    })()
      .catch((error: unknown) => {
        // Not a lock held elsewhere (that is `false`): said once, and not tried again.
        clearInterval(timer);
        io.stderr.write(`mem serve: cannot open the vector side: ${(error as Error).message}\n`);
      })
      .finally(() => (trying = false));
  }, RECLAIM_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * The warm path of agents' loops (issue 15, target 6): `mem query` and the other reads of the
 * projections, from another process on this machine, answered here on the registry this server
 * holds open instead of starting PGlite each time. Why not a daemon the CLI starts itself: an
 * embedded PGlite serves one process, so a background holder nobody started by hand would turn
 * every later ingest, rebuild and write's catch-up on this root into a CONFLICT; a `mem serve`
 * the user runs holds it already, knowingly. A socket that cannot be opened is said, and HTTP
 * served without it.
 */
async function warmSocket(
  io: CliIO,
  opened: OpenedRegistry,
  command: Command,
  rateLimit: (tokenId: string, operation: string) => void,
): Promise<WarmListener | null> {
  const { listenWarmSocket } = await import('../warm/warm-listener.js');
  const { main } = await import('../main.js');
  try {
    const warm = await listenWarmSocket({
      registry: opened.registry,
      vectorNote: () => opened.vectorNote,
      rateLimit,
      config: cliConfig(io, command.optsWithGlobals<GlobalOptions>()),
      run: (argv, cliIo, openRegistry) => main(argv, cliIo, { openRegistry }),
    });
    io.stderr.write(`mem serve: warm CLI socket ${warm.path}\n`);
    return warm;
  } catch (error) {
    io.stderr.write(`mem serve: no warm CLI socket: ${(error as Error).message}\n`);
    return null;
  }
}

function withValue<K extends string>(
  key: K,
  value: number | undefined,
): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
