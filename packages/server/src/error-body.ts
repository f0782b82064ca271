import { randomUUID } from 'node:crypto';
import { isMemError } from '@mem/core';
import { statusOf } from './status.js';

/** What an error answer carries: `{error: {code, message, details?, correlation_id?}}`. */
export interface ErrorBody {
  error: {
    code: string;
    message: string;
    details?: Record<string, unknown>;
    correlation_id?: string;
  };
}

/**
 * Turns any thrown value into a status and a body. 401 says nothing beyond its class; a 4xx
 * carries the error's message and details (the field and expected shape, the refused project,
 * the missing capability: operations put nothing else there), and so does a 507 (the disk is
 * full: the file it could not write); anything unexpected is a 500 with only a correlation id,
 * which the server log pairs with the real error.
 */
export function errorAnswer(error: unknown): {
  status: number;
  body: ErrorBody;
  internal?: { correlationId: string; error: unknown };
} {
  const status = isMemError(error) ? statusOf(error.code) : 500;
  if (status === 500 || !isMemError(error)) {
    const correlationId = randomUUID();
    return {
      status: 500,
      body: {
        error: { code: 'INTERNAL', message: 'internal error', correlation_id: correlationId },
      },
      internal: { correlationId, error },
    };
  }
  if (error.code === 'UNAUTHENTICATED')
    return { status, body: { error: { code: error.code, message: 'missing or invalid token' } } };
  const details = { ...error.details };
  return {
    status,
    body: {
      error: {
        code: error.code,
        message: error.message,
        ...(Object.keys(details).length > 0 ? { details } : {}),
      },
    },
  };
}
