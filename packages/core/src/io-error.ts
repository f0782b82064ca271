import { MemError, isMemError } from './errors.js';

/** errno codes that mean the file system (or the user's quota on it) has no room left. */
const NO_SPACE_ERRNOS: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a Node file-system error that says the disk or the quota is full. */
export function isNoSpaceErrno(error: unknown): boolean {
  const code = errnoOf(error);
  return code !== undefined && NO_SPACE_ERRNOS.has(code);
}

/**
 * The typed form of a failed file-system call on `path`: NO_SPACE when the disk is full (or
 * `noSpace` says so, for a library with codes of its own such as SQLITE_FULL), else IO_FAILED;
 * both name the path and the errno. A MemError passes through unchanged.
 */
export function ioError(
  action: string,
  path: string,
  cause: unknown,
  options: { noSpace?: boolean; details?: Record<string, unknown> } = {},
): MemError {
  if (isMemError(cause)) return cause;
  const errno = errnoOf(cause);
  const details = { ...options.details, path, action, ...(errno !== undefined ? { errno } : {}) };
  if (options.noSpace === true || isNoSpaceErrno(cause)) {
    return new MemError(
      'NO_SPACE',
      `no space left on device: cannot ${action} ${path}${errno !== undefined ? ` (${errno})` : ''}`,
      details,
      { cause },
    );
  }
  const why = errno ?? (cause instanceof Error ? cause.message : String(cause));
  return new MemError('IO_FAILED', `cannot ${action} ${path}: ${why}`, details, { cause });
}
