import { MemError, isNoSpaceErrno } from '@mem/core';
import { redactUrl } from './backend/pg-client.js';
import { embeddedDir, type BackendConfig } from './backend/open-backend.js';
import { sqlState } from './backend/sql.js';

/** SQLSTATE 53100 (disk_full) from PGlite or Postgres, or ENOSPC from a file call, anywhere in the cause chain. */
function isDiskFull(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current !== undefined && current !== null && depth < 8;
    current = (current as { cause?: unknown }).cause, depth += 1
  ) {
    if (sqlState(current) === '53100' || isNoSpaceErrno(current)) return true;
  }
  return false;
}

/** Where the projection's rows live, for an error: the embedded data directory, or the (redacted) database. */
export function projectionLocation(config: BackendConfig, stateDir: string): string {
  if (config.pglite) return 'the shared PGlite instance';
  if (config.databaseUrl) return redactUrl(config.databaseUrl);
  return embeddedDir(stateDir);
}

/**
 * Runs one step of the projector, turning a full disk into NO_SPACE naming where the rows
 * live. Why here: a statement's failure is wrapped as PROJECTION_FAILED naming the event, which
 * hides that nothing is wrong with the event. The transaction was rolled back either way.
 */
export async function namingFullDisk<T>(
  location: string,
  step: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new MemError(
      'NO_SPACE',
      `no space left on device: cannot ${step} the pgvector projection at ${location} (${why})`,
      { path: location, projector: 'pgvector', step },
      { cause: error },
    );
  }
}
