import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemError } from '@mem/core';
import {
  IDEMPOTENCY_ARGUMENT,
  mcpTools,
  type AnyRemoteOperation,
  type Registry,
} from '@mem/registry';
import { toolError, toolSuccess, type ToolResult } from './tool-result.js';

export interface McpServerOptions {
  /** The token of this session, read per call (MCP over stdio: from the environment). */
  credential: () => string | undefined;
  /** Where unexpected errors are reported (stderr: stdout carries the protocol). */
  log?: (line: string) => void;
  /**
   * Runs a call elsewhere when it should be (`mem mcp`: a read of the vectors while a `mem
   * serve` holds them): its output, or null to run it here. It may run it here itself (the
   * call's `here`), guarded as it needs. May throw the caller error it met there, reported as
   * this server's own.
   */
  route?: McpRoute;
}

/**
 * One call as `McpServerOptions.route` sees it: its operation, the session's token and the
 * input, and `here`: the call run on this server's registry (authenticated afresh), its output.
 */
export type McpRoute = (call: {
  operation: AnyRemoteOperation;
  credential: string | undefined;
  input: Record<string, unknown>;
  here: () => Promise<unknown>;
}) => Promise<{ output: unknown } | null>;

/**
 * The MCP surface: one tool per registry tool group, its input schema and annotations derived
 * from the registry. A call selects its operation (by the tool's select field when several
 * share it), authenticates the session's token afresh, and goes through the registry like any
 * HTTP request: the same validation, authorization and errors.
 */
export function createMcpServer(registry: Registry, options: McpServerOptions): Server {
  const tools = mcpTools(registry.remote);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: 'mem', version: registry.context.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Project memory: `query` answers questions with citations; `ingest` submits transcripts; `list_projects` shows what this token reaches.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<ToolResult> => {
    try {
      const tool = byName.get(request.params.name);
      if (!tool)
        throw new MemError('NOT_FOUND', `no tool ${JSON.stringify(request.params.name)}`, {
          tool: request.params.name,
        });
      const args: Record<string, unknown> = { ...(request.params.arguments ?? {}) };
      let key = '';
      if (tool.selectField !== null) {
        const value = args[tool.selectField];
        delete args[tool.selectField];
        if (typeof value !== 'string' || !tool.operations.has(value)) {
          const allowed = [...tool.operations.keys()];
          throw new MemError(
            'INVALID_INPUT',
            `${tool.name}: ${tool.selectField}: expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
            {
              field: tool.selectField,
              expected: `one of ${allowed.join(', ')}`,
            },
          );
        }
        key = value;
      }
      const op = tool.operations.get(key)!;
      const idempotencyKey = args[IDEMPOTENCY_ARGUMENT];
      delete args[IDEMPOTENCY_ARGUMENT];
      if (idempotencyKey !== undefined && typeof idempotencyKey !== 'string') {
        throw new MemError('INVALID_INPUT', `${IDEMPOTENCY_ARGUMENT}: expected a string`, {
          field: IDEMPOTENCY_ARGUMENT,
          expected: 'string',
        });
      }
      const here = async () => {
        const caller = await registry.authenticate(options.credential(), 'mcp');
        return registry.invoke(
          op.name,
          caller,
          args,
          op.kind === 'write' && idempotencyKey !== undefined ? { idempotencyKey } : {},
        );
      };
      const routed =
        op.kind === 'read' && options.route
          ? await options.route({
              operation: op,
              credential: options.credential(),
              input: args,
              here,
            })
          : null;
      return toolSuccess(routed ? routed.output : await here());
    } catch (error) {
      return toolError(error, options.log);
    }
  });

  return server;
}
