import { existsSync } from 'node:fs';
import { SYSTEM_PROJECT } from '@mem/core';
import { DATA_TABLES, SYSTEM_TABLES } from './canonical-copy.js';
import { openStore } from './open-store.js';
import { removeDatabaseFiles, storeFiles } from './store-files.js';

/**
 * Drops the item store under `stateDir`: the whole file, or every row of one project (node_fts
 * follows through the connection's triggers). The file is then marked rebuilding, so the seal
 * after the project's replay writes the canonical copy. Call it with no handle open on the store.
 */
export function resetStore(stateDir: string, version: number, project?: string): void {
  const files = storeFiles(stateDir);
  if (project === undefined) {
    removeDatabaseFiles(files.live);
    removeDatabaseFiles(files.sealing);
    removeDatabaseFiles(files.ftsScratch);
    return;
  }
  if (!existsSync(files.live)) return;
  const handle = openStore(stateDir, version);
  try {
    const { db } = handle;
    db.transaction(() => {
      for (const table of DATA_TABLES)
        db.prepare(`DELETE FROM ${table} WHERE project = ?`).run(project);
      if (project === SYSTEM_PROJECT)
        for (const table of SYSTEM_TABLES) db.exec(`DELETE FROM ${table}`);
      handle.statements.markUnsealed.run();
      handle.statements.markRebuilding.run();
    }).immediate();
  } finally {
    handle.db.close();
  }
}
