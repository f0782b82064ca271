import { MemError, type ErrorCode } from '@mem/core';
import { isCallerError } from '@mem/registry';
import type { McpRoute } from '@mem/mcp';
import type { OpenedRegistry } from './open-registry.js';
import { definedOnly, invokeOnWarmServer, probeWarmServer } from './warm/forward.js';

/**
 * How often a `mem mcp` holding the embedded PGlite looks for a `mem serve` on its data root
 * (one lstat of the warm socket while none runs): the bound on how long a server started after
 * it stays keyword-only, with the server's own retry (serve.ts) and its PGlite open.
 */
export const YIELD_POLL_MS = 1000;

/** The route of `mem mcp`'s reads of the vectors, and how to stop watching for a server. */
export interface VectorsRoute {
  route: McpRoute;
  close(): Promise<void>;
}

/**
 * How `mem mcp` answers a read of the vectors (a query, a tool context) when the embedded
 * PGlite is shared with a `mem serve` on the same data root, whichever started first. The
 * server has it: the read goes to that server's warm socket (as the CLI's reads do) and is
 * answered there on its registry — the HTTP API's answer, vector leg included. This process has
 * it: it answers here, and once a server starts on the root (its socket answers and would take
 * these reads), it hands the PGlite over (OpenedRegistry.releaseVectors: after the reads running
 * here) and forwards from then on; the server takes it on its next read or retry. When no server
 * answers (it stopped, or was killed), this process tries to take the PGlite back (one lock
 * attempt while another process holds it); while another process still holds it, the call is
 * answered here, keyword-only, its answer saying why (recall.vector 'failed', CONFLICT). Writes
 * and other reads always run here: an append takes the project's lock wherever it runs, and
 * pgvector's catch-up skips a PGlite another process holds (the holder catches it up before its
 * next vector read), so one process writes PGlite. None where there is no embedded PGlite to
 * share (none built, or DATABASE_URL): everything runs here, as before.
 */
export function heldVectorsRoute(
  opened: OpenedRegistry,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): VectorsRoute | undefined {
  if (!opened.vectorsHeld && !opened.holdsVectors()) return undefined;
  const root = opened.registry.context.engine.paths.root;
  // The server declines this process's settings (MEM_NOW, another embedder): so it will on every
  // call, so after the first such decline nothing more is sent there (nor handed), and it is said once.
  let configuredOtherwise = false;
  const otherwise = (settings: string[]) => {
    if (configuredOtherwise) return;
    configuredOtherwise = true;
    log(
      `mem mcp: note: mem serve on this root is configured otherwise (${settings.join(', ')}): ` +
        'vector reads are answered here, not through it',
    );
  };
  let yielding: Promise<void> | null = null;
  // Set once a server accepted, while the PGlite is let go: a read waits for that, never for the
  // probe itself (a stopped server keeps a probe waiting for its greeting, 3 s).
  let handing: Promise<boolean> | null = null;
  const yieldToServer = async () => {
    const probe = await probeWarmServer(root, definedOnly(env));
    if (probe && probe !== 'accepted') return otherwise(probe.settings);
    if (probe !== 'accepted') return;
    handing = opened.releaseVectors();
    const handed = await handing.finally(() => (handing = null));
    if (!handed) return;
    log(
      'mem mcp: note: a mem serve answers on this data root: the embedded PGlite is handed to it, and query and context go through its socket',
    );
  };
  const timer = setInterval(() => {
    if (yielding || configuredOtherwise || !opened.holdsVectors()) return;
    yielding = yieldToServer()
      .catch((error: unknown) => log(`mem mcp: note: ${(error as Error).message}`))
      .finally(() => (yielding = null));
  }, YIELD_POLL_MS);
  timer.unref();

  const route: McpRoute = async ({ operation, credential, input, here }) => {
    if (operation.kind !== 'read' || operation.reads !== 'vectors') return null;
    await handing; // a hand-over under way ends first: the read then goes to the server
    if (opened.holdsVectors()) {
      // Run here, unless a hand-over ends while the read is on its way to the vectors (its token
      // is read first, from disk): then it did not run here, and goes the forward path below.
      const ranHere = await opened.readHeldVectors(here);
      if (ranHere) return ranHere;
    }
    const reply = configuredOtherwise
      ? null
      : await invokeOnWarmServer(
          root,
          {
            invoke: { operation: operation.name, input, credential: credential ?? null },
            env: definedOnly(env),
          },
          (line) => log(`mem mcp: note: ${line}`),
        );
    if (reply && 'settings' in reply) otherwise(reply.settings);
    if (reply && 'output' in reply) return { output: reply.output };
    if (reply && 'error' in reply && isCallerError(reply.error?.code)) {
      const { code, message, details } = reply.error;
      throw new MemError(code as ErrorCode, String(message), details ?? {});
    }
    if (await opened.reopenVectors())
      log('mem mcp: the embedded PGlite is free again: vector recall is answered here');
    return null;
  };
  return {
    route,
    close: async () => {
      clearInterval(timer);
      await yielding;
    },
  };
}
