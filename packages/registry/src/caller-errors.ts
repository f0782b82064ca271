import type { ErrorCode } from '@mem/core';

/**
 * Error codes a caller caused (or, for NO_SPACE, can act on): shown to them, with their message and details,
 * on every surface. Any other code is unexpected on the server side and is masked (a
 * correlation id only). The HTTP status of each lives in @mem/server, and a test holds the
 * two lists equal.
 */
export const CALLER_ERROR_CODES: readonly ErrorCode[] = [
  'INVALID_INPUT',
  'INVALID_PROJECT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'CAPABILITY_REQUIRED',
  'NOT_FOUND',
  'CONFLICT',
  'BUDGET_EXCEEDED',
  'PAYLOAD_TOO_LARGE',
  'CONFIG_INVALID',
  'RATE_LIMITED',
  // A write refused by a tombstone, and a ref naming more than one line: the caller's to act on
  // (--force, a longer prefix); masked, an MCP client saw INTERNAL where HTTP said FORGOTTEN.
  'FORGOTTEN',
  'AMBIGUOUS_REF',
  // Not the caller's doing, but theirs to act on (retry later): the server's disk is full and
  // nothing was written.
  'NO_SPACE',
];

export function isCallerError(code: string): boolean {
  return (CALLER_ERROR_CODES as readonly string[]).includes(code);
}
