import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Registry } from '@mem/registry';
import { createMcpServer } from './mcp-server.js';

/** The environment variable the stdio server reads its token from. */
export const TOKEN_ENV = 'MEM_TOKEN';

/**
 * Serves the registry as an MCP server over this process's stdin/stdout, authenticating every
 * call with `$MEM_TOKEN`. Resolves when the client closes the connection.
 */
export async function serveMcpStdio(registry: Registry, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const server = createMcpServer(registry, { credential: () => env[TOKEN_ENV] || undefined, log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
