import Database from 'better-sqlite3';
import { itemStorePath } from '../src/store-files.js';

/**
 * Edits one row of the live item store the way a person with the sqlite3 shell would: a plain
 * connection, none of the projector's statements or triggers. Returns how many rows changed.
 */
export function tamperOneRow(stateDir: string, sql: string): number {
  const db = new Database(itemStorePath(stateDir));
  try {
    return db.prepare(sql).run().changes;
  } finally {
    db.close();
  }
}
