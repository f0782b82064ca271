import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** A JSON-RPC error answer to a line that never reaches the MCP server. */
export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** What to do with one line from the client: hand a message on, answer it here, or ignore it. */
export type Screened =
  { message: JSONRPCMessage } | { reply: JsonRpcErrorReply } | { ignore: string };

/**
 * The params schemas of the requests mem's server answers. Why here: the SDK parses params
 * with zod inside its dispatcher and answers a mismatch with the raw zod issue list as
 * `-32603 Internal error` (or `-32602` carrying the same dump for tools/call).
 */
const REQUESTS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

function reply(id: string | number | null, code: number, message: string): Screened {
  return { reply: { jsonrpc: '2.0', id, error: { code, message } } };
}

function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** One zod issue in words: the field and what was wrong, never the issue list itself. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const field = issue.path
    .map((key) => (typeof key === 'number' ? `#${key}` : String(key)))
    .join('.');
  return `${field === '' ? '(message)' : field}: ${issue.message}`;
}

/**
 * Screens one line of newline-delimited JSON-RPC (MCP's stdio framing): not JSON is -32700,
 * JSON that is not one JSON-RPC message (a batch, a string, a method that is not a string) is
 * -32600, a known request with params of the wrong shape is -32602. Replies carry the request's
 * id when it can be read, else null. A blank line is ignored; a malformed notification is
 * ignored too (JSON-RPC never answers a notification), with the reason for the log.
 */
export function screenLine(line: string): Screened {
  if (line.trim() === '') return { ignore: 'blank line' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return reply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
  }
  if (Array.isArray(value))
    return reply(
      null,
      ErrorCode.InvalidRequest,
      'Invalid Request: batches are not supported; send one JSON-RPC message per line',
    );
  const envelope = JSONRPCMessageSchema.safeParse(value);
  if (!envelope.success) {
    return reply(
      idOf(value),
      ErrorCode.InvalidRequest,
      `Invalid Request: expected a JSON-RPC 2.0 request, notification or response (${firstIssue(envelope.error)})`,
    );
  }
  const message = envelope.data;
  if (!('method' in message)) return { message };
  const schema = REQUESTS[message.method];
  if (schema === undefined) return { message };
  const params = schema.safeParse(message);
  if (params.success) return { message };
  if (!('id' in message))
    return { ignore: `notification ${message.method}: ${firstIssue(params.error)}` };
  return reply(message.id, ErrorCode.InvalidParams, `Invalid params: ${firstIssue(params.error)}`);
}
