import type Database from 'better-sqlite3';
import { ORIENT_FLUSH_SQL, registerOrientTriggers, type OrientFlush } from './orient-triggers.js';
import { NODE_FTS_FLUSH_SQL, registerFtsTriggers } from './fts-triggers.js';
import { ITEM_BIRTH_SQL, type ItemBirth } from './item-births.js';
import { ITEM_FTS_FLUSH_SQL, registerItemFtsTriggers } from './item-fts.js';
import { registerForgottenText } from './forgotten-text.js';
import { registerFtsText } from './fts-text.js';
import { openWritable } from './open-database.js';
import type { StatementName } from './planned-write.js';
import { POSITION_SQL, STATEMENT_SQL } from './statements.js';
import { MARK_REBUILDING_SQL, MARK_UNSEALED_SQL } from './store-meta.js';
import type { StoreFiles } from './store-files.js';

/** The open item store a projector handle holds. */
export interface ItemStoreHandle {
  readonly files: StoreFiles;
  readonly stateDir: string;
  /** The live file's device and inode when it was opened (reuse-store.ts). */
  readonly identity: string | null;
  db: Database.Database;
  statements: PreparedStatements;
  /** True when the live file holds writes since its last seal (sealed = '0'). */
  dirty: boolean;
  /** Events applied in the open write transaction, not committed yet. */
  uncommitted: number;
  /** True when a write since the last seal may have dropped or replaced text (text-rewrites.ts). */
  rewrote: boolean;
}

export interface PreparedStatements {
  /** A planned statement, prepared on its first use in this connection. */
  planned: (name: StatementName) => Database.Statement;
  readPosition: Database.Statement;
  writePosition: Database.Statement;
  markUnsealed: Database.Statement;
  markRebuilding: Database.Statement;
  /** What adds the births a batch's triggers noted to the parents' totals (orient-triggers.ts). */
  flushOrient: OrientFlush;
  /** What indexes the nodes and items a batch's triggers noted (fts-triggers.ts), in order. */
  flushFts: readonly Database.Statement[];
  /** What an item's insert notes for those flushes and counts (item-births.ts). */
  itemBirth: ItemBirth;
}

export function prepareStatements(db: Database.Database): PreparedStatements {
  registerForgottenText(db);
  // mem_fts_text: what the node_fts and item_fts flushes index (fts-text.ts), once a connection.
  registerFtsText(db);
  registerFtsTriggers(db);
  registerItemFtsTriggers(db);
  registerOrientTriggers(db);
  // Trigger: every catch-up opens the store. Why: preparing all 52 planned statements was most
  // of an open (8.6 of 12.7 ms), and a small batch runs a few of them. Outcome: each is
  // prepared on its first use and kept for the connection's life.
  const prepared = new Map<StatementName, Database.Statement>();
  const planned = (name: StatementName): Database.Statement => {
    let statement = prepared.get(name);
    if (!statement) {
      statement = db.prepare(STATEMENT_SQL[name]);
      prepared.set(name, statement);
    }
    return statement;
  };
  return {
    planned,
    readPosition: db.prepare(POSITION_SQL.read),
    writePosition: db.prepare(POSITION_SQL.write),
    markUnsealed: db.prepare(MARK_UNSEALED_SQL),
    markRebuilding: db.prepare(MARK_REBUILDING_SQL),
    flushOrient: {
      births: db.prepare(ORIENT_FLUSH_SQL.births),
      add: db.prepare(ORIENT_FLUSH_SQL.add),
      clear: db.prepare(ORIENT_FLUSH_SQL.clear),
    },
    flushFts: [...NODE_FTS_FLUSH_SQL, ...ITEM_FTS_FLUSH_SQL].map((sql) => db.prepare(sql)),
    itemBirth: {
      fts: db.prepare(ITEM_BIRTH_SQL.fts),
      live: db.prepare(ITEM_BIRTH_SQL.live),
      tree: db.prepare(ITEM_BIRTH_SQL.tree),
    },
  };
}

/** Opens the live file with its prepared statements, e.g. again after a seal replaced it. */
export function openLive(path: string): Pick<ItemStoreHandle, 'db' | 'statements'> {
  const db = openWritable(path);
  return { db, statements: prepareStatements(db) };
}
