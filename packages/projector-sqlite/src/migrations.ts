import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '@mem/core';
import type Database from 'better-sqlite3';

/** One SQL migration file: `NNNN_name.sql` under `migrations/sqlite/` at the repository root. */
export interface Migration {
  name: string;
  sha256: string;
  sql: string;
}

/** `<repo>/migrations/sqlite/`: the same three levels up from `src/` and from `dist/`. */
export const MIGRATIONS_DIR = fileURLToPath(
  new URL('../../../migrations/sqlite/', import.meta.url),
);

const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;

let cached: readonly Migration[] | undefined;

/** The migrations in name order (read once per process). */
export function loadMigrations(dir: string = MIGRATIONS_DIR): readonly Migration[] {
  if (dir === MIGRATIONS_DIR && cached) return cached;
  const migrations = readdirSync(dir)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => {
      const sql = readFileSync(`${dir}/${name}`, 'utf8');
      return { name, sha256: sha256Hex(sql), sql };
    });
  if (dir === MIGRATIONS_DIR) cached = migrations;
  return migrations;
}

const LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL) WITHOUT ROWID`;

/**
 * Applies the migrations `db` lacks, each in its own transaction, recording name and sha256
 * (never a time: the ledger is part of the projected bytes). Returns false without writing
 * when an applied migration differs from its file: that file is not this schema any more.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = loadMigrations(),
): boolean {
  db.exec(LEDGER);
  const applied = new Map(
    (
      db.prepare('SELECT name, sha256 FROM schema_migrations ORDER BY name').all() as {
        name: string;
        sha256: string;
      }[]
    ).map((r) => [r.name, r.sha256]),
  );
  for (const [name, sha] of applied) {
    if (migrations.find((m) => m.name === name)?.sha256 !== sha) return false;
  }
  const record = db.prepare('INSERT INTO schema_migrations (name, sha256) VALUES (?, ?)');
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.name, migration.sha256);
    })();
  }
  return true;
}
