import { MemError, type ErrorCode } from '@mem/core';
import { isCallerError } from '@mem/registry';
import type { McpRoute } from '@mem/mcp';
import type { OpenedRegistry } from './open-registry.js';
import { definedOnly, invokeOnWarmServer } from './warm/forward.js';

/**
 * How `mem mcp` answers a read of the vectors (a query, a tool context) while another process
 * holds the embedded PGlite: a `mem serve` on the same data root holds it, so the read goes to
 * that server's warm socket (as the CLI's reads do) and is answered there on its registry — the
 * HTTP API's answer, vector leg included. When no server answers (it stopped, or never ran), this
 * process tries to open the vector side itself, once per call until it has it; while another
 * process still holds it, the call is answered here, keyword-only, its answer saying why
 * (recall.vector 'failed', CONFLICT). Writes and other reads always run here: an append takes
 * the project's lock wherever it runs, and pgvector's catch-up skips a PGlite another process
 * holds (the holder catches it up before its next vector read), so one process writes PGlite.
 * None where the vector side was not held at start: everything runs here, as before.
 */
export function heldVectorsRoute(
  opened: OpenedRegistry,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): McpRoute | undefined {
  if (!opened.vectorsHeld) return undefined;
  const root = opened.registry.context.engine.paths.root;
  let own = false;
  // The server declines this process's settings (MEM_NOW, another embedder): so it will on every
  // call, so after the first such decline nothing more is sent there, and it is said once.
  let configuredOtherwise = false;
  return async ({ operation, credential, input }) => {
    if (own || operation.kind !== 'read' || operation.reads !== 'vectors') return null;
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
    if (reply && 'settings' in reply) {
      configuredOtherwise = true;
      log(
        `mem mcp: note: mem serve on this root is configured otherwise (${reply.settings.join(', ')}): ` +
          'vector reads are answered here, not through it',
      );
    }
    if (reply && 'output' in reply) return { output: reply.output };
    if (reply && 'error' in reply && isCallerError(reply.error?.code)) {
      const { code, message, details } = reply.error;
      throw new MemError(code as ErrorCode, String(message), details ?? {});
    }
    own = await opened.reopenVectors();
    if (own) log('mem mcp: the embedded PGlite is free again: vector recall is answered here');
    return null;
  };
}
