import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** The item store's files under a target's state dir. */
export interface StoreFiles {
  /** `.mem/items.sqlite`: the projection, canonical after every seal. */
  live: string;
  /** Where a seal builds the next canonical file before renaming it over `live`. */
  sealing: string;
  /** Where a seal builds the FTS index when nodes changed (deleted after the seal). */
  ftsScratch: string;
}

/** Relative path of the one output, as `outputs()` reports it. */
export const OUTPUT_PATH = '.mem/items.sqlite';

/** The item store of the state dir `stateDir` (`<root>/.mem`): the one place its file name is spelled. */
export function itemStorePath(stateDir: string): string {
  return join(stateDir, 'items.sqlite');
}

export function storeFiles(stateDir: string): StoreFiles {
  const live = itemStorePath(stateDir);
  return { live, sealing: `${live}.sealing`, ftsScratch: `${live}.fts` };
}

/** Removes a database file and whatever SQLite may have left beside it. */
export function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm'])
    rmSync(`${path}${suffix}`, { force: true });
}
