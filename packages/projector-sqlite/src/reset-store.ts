import { existsSync, rmSync } from 'node:fs';
import { SYSTEM_PROJECT } from '@mem/core';
import { DATA_TABLES, SYSTEM_TABLES } from './canonical-copy.js';
import { installEmptyStore } from './empty-store.js';
import { checkpointTruncate } from './open-database.js';
import { openStore } from './open-store.js';
import { removeDatabaseFiles, storeFiles } from './store-files.js';

/**
 * Drops the item store under `stateDir`: every row (an empty store installed in place, never
 * a deleted file: empty-store.ts), or every row of one project (the connection's triggers note
 * the deleted rows for node_fts and item_fts, and the reset flushes those notes before it
 * commits, as applyEvents does at the end of a batch). The file is then marked rebuilding, so the seal after the replay
 * writes the canonical copy. Call it with no handle open on the store.
 */
export async function resetStore(
  stateDir: string,
  version: number,
  project?: string,
): Promise<void> {
  const files = storeFiles(stateDir);
  if (!existsSync(files.live)) {
    removeDatabaseFiles(files.sealing);
    removeDatabaseFiles(files.ftsScratch);
    return;
  }
  // Opened first: a file that is no database is replaced, one of another version emptied.
  const handle = await openStore(stateDir, version);
  if (project === undefined) {
    handle.db.close();
    await installEmptyStore(files, version);
    // A rollback journal beside a WAL file is no one's (an older version's, rollback-mode
    // store left it) and may hold pages of the old store: a purge must not leave it.
    rmSync(`${files.live}-journal`, { force: true });
    return;
  }
  try {
    const { db } = handle;
    db.transaction(() => {
      for (const table of DATA_TABLES)
        db.prepare(`DELETE FROM ${table} WHERE project = ?`).run(project);
      if (project === SYSTEM_PROJECT)
        for (const table of SYSTEM_TABLES) db.exec(`DELETE FROM ${table}`);
      for (const statement of handle.statements.flushFts) statement.run();
      handle.statements.markUnsealed.run();
      handle.statements.markRebuilding.run();
    }).immediate();
    // The deleted rows' pages as they were are in the -wal until a checkpoint (seal.ts).
    checkpointTruncate(db, files.live);
  } finally {
    handle.db.close();
  }
}
