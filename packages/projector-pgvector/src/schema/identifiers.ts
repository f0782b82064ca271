import { resolve } from 'node:path';
import { sha256Hex } from '@mem/core';

/** A double-quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The schema of the embedded projection: it owns its whole database (`<stateDir>/pg`). */
export const EMBEDDED_SCHEMA = 'mem';

/**
 * The schema of a projection that shares a database (DATABASE_URL, or a caller's PGlite): one
 * per state directory, so `mem verify`'s scratch rebuild (another directory) never touches the
 * live rows. Its state directory is recorded in memory_meta.
 */
export function sharedSchemaFor(stateDir: string): string {
  return `mem_${sha256Hex(resolve(stateDir)).slice(0, 16)}`;
}
