import { randomUUID } from 'node:crypto';
import { isMemError } from '@mem/core';
import { isCallerError } from '@mem/registry';

/** A tool's answer as MCP carries it: the JSON as text, and as structured content when it is an object. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toolSuccess(output: unknown): ToolResult {
  const structured =
    output !== null && typeof output === 'object' && !Array.isArray(output)
      ? { structuredContent: output as Record<string, unknown> }
      : {};
  return { content: [{ type: 'text', text: JSON.stringify(output) }], ...structured };
}

/**
 * The same error body as over HTTP, as a tool error: `{error: {code, message, details?}}`.
 * UNAUTHENTICATED says nothing more; an unexpected error is masked behind a correlation id,
 * reported through `log` with the real error.
 */
export function toolError(error: unknown, log?: (line: string) => void): ToolResult {
  let body: {
    code: string;
    message: string;
    details?: Record<string, unknown>;
    correlation_id?: string;
  };
  if (isMemError(error) && isCallerError(error.code)) {
    body =
      error.code === 'UNAUTHENTICATED'
        ? { code: error.code, message: 'missing or invalid token' }
        : {
            code: error.code,
            message: error.message,
            ...(Object.keys(error.details).length > 0 ? { details: { ...error.details } } : {}),
          };
  } else {
    const correlationId = randomUUID();
    log?.(
      JSON.stringify({
        ts: new Date().toISOString(),
        level: 'error',
        correlation_id: correlationId,
        error: (error as Error)?.stack ?? String(error),
      }),
    );
    body = { code: 'INTERNAL', message: 'internal error', correlation_id: correlationId };
  }
  return {
    content: [{ type: 'text', text: JSON.stringify({ error: body }) }],
    structuredContent: { error: body },
    isError: true,
  };
}
