import type { ErrorCode } from '@mem/core';

/**
 * The error taxonomy on the wire (seed 001 "Error Taxonomy", seed 000 §6). The only place in
 * mem where an error code becomes an HTTP status. A code not listed here is unexpected: 500,
 * masked behind a correlation id.
 */
export const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  INVALID_PROJECT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CAPABILITY_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  FORGOTTEN: 409,
  AMBIGUOUS_REF: 409,
  BUDGET_EXCEEDED: 409,
  PAYLOAD_TOO_LARGE: 413,
  CONFIG_INVALID: 422,
  RATE_LIMITED: 429,
  NO_SPACE: 507,
};

/** The status of a known error code, or 500. */
export function statusOf(code: string): number {
  return STATUS_OF[code as ErrorCode] ?? 500;
}

/** Every status the API may answer with an error body (for the OpenAPI document). */
export const ERROR_STATUSES = [...new Set(Object.values(STATUS_OF))]
  .sort((a, b) => a - b)
  .concat(500);
