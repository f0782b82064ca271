import { installStore } from './install-store.js';
import { openScratch } from './open-database.js';
import type { StoreFiles } from './store-files.js';
import { removeDatabaseFiles } from './store-files.js';
import { writeMeta } from './store-meta.js';

/**
 * Empties the live store in place: an empty store (the migrations, meta `rebuilding` = '1', so
 * the seal after the replay writes the canonical copy) built beside it and installed into it.
 * Why not delete the file: a server's read handles, here and in other processes, hold it and
 * its -wal and -shm; a new file under the same name would meet them (install-store.ts). Every
 * page of the old store is overwritten or cut off, so a purge leaves none of its text.
 */
export async function installEmptyStore(files: StoreFiles, version: number): Promise<void> {
  const db = openScratch(files.sealing, 'empty item store');
  try {
    db.transaction(() => writeMeta(db, version, { sealed: false, rebuilding: true }))();
  } finally {
    db.close();
  }
  try {
    await installStore(files.sealing, files.live);
  } finally {
    removeDatabaseFiles(files.sealing);
  }
}
