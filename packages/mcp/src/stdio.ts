import type { MemConfig } from '@mem/core';
import type { Registry } from '@mem/registry';
import { createMcpServer, type McpRoute } from './mcp-server.js';
import { ScreenedStdioTransport } from './stdio-transport.js';

/** The environment variable the stdio server reads its token from. */
export const TOKEN_ENV = 'MEM_TOKEN';

/**
 * Says on the log (stderr) when `$MEM_TOKEN` is missing or not a valid token now. The server
 * still starts: every call authenticates afresh, so a token minted later works without a
 * restart; but a client that only sees "missing or invalid token" per call needs to be told why.
 */
async function reportToken(
  registry: Registry,
  token: string | undefined,
  log: (line: string) => void,
): Promise<void> {
  if (token === undefined) {
    log(
      `mem mcp: ${TOKEN_ENV} is not set; every tool call will be refused (UNAUTHENTICATED) until it is`,
    );
    return;
  }
  try {
    await registry.authenticate(token, 'mcp');
  } catch {
    log(
      `mem mcp: ${TOKEN_ENV} is not a valid token (unknown, revoked, expired or malformed); every tool call will be refused (UNAUTHENTICATED)`,
    );
  }
}

/**
 * Serves the registry as an MCP server over this process's stdin/stdout, authenticating every
 * call with `$MEM_TOKEN`. Resolves when the client closes the connection or its end of stdin.
 */
export async function serveMcpStdio(
  registry: Registry,
  config: MemConfig,
  log: (line: string) => void,
  route?: McpRoute,
): Promise<void> {
  const token = () => config.MEM_TOKEN || undefined;
  await reportToken(registry, token(), log);
  const server = createMcpServer(registry, { credential: token, log, ...(route ? { route } : {}) });
  const transport = new ScreenedStdioTransport(process.stdin, process.stdout, log);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
