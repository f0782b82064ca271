/**
 * Stable error codes. Tests and callers branch on these, never on message text.
 * HTTP statuses and exit codes are mapped from them at the edges (server, cli).
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'INVALID_EVENT',
  'UNKNOWN_EVENT_TYPE',
  /** A logged event of a schema version newer than this mem reads; names the line, the type and the versions. */
  'UNSUPPORTED_VERSION',
  'SHA_MISMATCH',
  'INVALID_PROJECT',
  'LOG_CORRUPT',
  'CHAIN_BROKEN',
  'LOCK_FAILED',
  'IO_FAILED',
  /** The disk (or the quota) is full; `details.path` names the file. What failed was rolled back or is redone from the log. */
  'NO_SPACE',
  'PROJECTION_FAILED',
  'PARITY_FAILED',
  'PROVENANCE_FAILED',
  'NOT_FOUND',
  'CONFLICT',
  'CONFIG_INVALID',
  /** A vault file whose frontmatter is not plain YAML data (another language, a custom tag, an alias, `__proto__`); names the file. */
  'FRONTMATTER_REFUSED',
  'MALFORMED_ANSWER',
  'BUDGET_EXCEEDED',
  'MODEL_FAILED',
  'TIMEOUT',
  /** No credential, or one that is unknown, revoked, expired or wrong. Says nothing more. */
  'UNAUTHENTICATED',
  /** The credential is valid but does not reach this project; names the project, never its contents. */
  'FORBIDDEN',
  /** The project is reachable but the credential lacks a capability (admin, may_write_rules); names it. */
  'CAPABILITY_REQUIRED',
  /** Too many requests for this credential; `details.retry_after_s` says when to try again. */
  'RATE_LIMITED',
  /** A request body over the size limit; `details.limit_bytes` names the limit. */
  'PAYLOAD_TOO_LARGE',
  /** A write of text a `forgotten` tombstone refuses (its exact text or a rewording); `details.tombstone` names it. Nothing was written. */
  'FORGOTTEN',
  /** A short sha prefix or text that names more than one line or memory; `details.candidates` lists them. */
  'AMBIGUOUS_REF',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error class of mem: a stable `code`, structured `details`, and an optional `cause`. */
export class MemError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MemError';
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string; details: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Structural guard: true for any MemError, even one from another copy of this module. */
export function isMemError(value: unknown): value is MemError {
  if (!(value instanceof Error)) return false;
  const candidate = value as unknown as { code?: unknown; details?: unknown };
  return (
    typeof candidate.code === 'string' &&
    (ERROR_CODES as readonly string[]).includes(candidate.code) &&
    typeof candidate.details === 'object'
  );
}

/** True when `value` is a MemError carrying `code`. */
export function hasErrorCode(value: unknown, code: ErrorCode): value is MemError {
  return isMemError(value) && value.code === code;
}

/**
 * The code of a file the user named that cannot be read: NOT_FOUND where nothing is there
 * (exit 1), INVALID_INPUT where a directory is (exit 2), IO_FAILED otherwise. One rule for
 * every file a command reads (`log append --file`, `items add --file`, `signature FILE`, a
 * gold set, a LoCoMo file).
 */
export function unreadableFileCode(error: unknown): 'NOT_FOUND' | 'INVALID_INPUT' | 'IO_FAILED' {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'NOT_FOUND' : code === 'EISDIR' ? 'INVALID_INPUT' : 'IO_FAILED';
}
