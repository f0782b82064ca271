import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemError, sha256Hex } from '@mem/core';
import { quoteIdent } from './identifiers.js';

/** `migrations/postgres/` at the repository root: three levels above src/schema/ and dist/schema/. */
export const MIGRATIONS_DIR = join(
  fileURLToPath(new URL('.', import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'migrations',
  'postgres',
);

export interface Migrations {
  /** sha256 over the files' names and untemplated text: a change means a rebuild. */
  fingerprint: string;
  /** The SQL for `schema` and `dims`, files in name order. */
  render(schema: string, dims: number): string;
}

let cached: Migrations | undefined;

/** Reads the migrations once per process. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migrations {
  if (cached && dir === MIGRATIONS_DIR) return cached;
  let files: { name: string; text: string }[];
  try {
    files = readdirSync(dir)
      .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
      .sort()
      .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  } catch (error) {
    throw new MemError(
      'IO_FAILED',
      `cannot read the pgvector migrations in ${dir}: ${(error as Error).message}`,
      { dir },
      { cause: error },
    );
  }
  if (files.length === 0)
    throw new MemError('IO_FAILED', `no migrations (NNNN_name.sql) in ${dir}`, { dir });
  const migrations: Migrations = {
    fingerprint: sha256Hex(files.map((f) => `${f.name}\n${f.text}`).join('\n')),
    render: (schema, dims) =>
      files
        .map((f) =>
          f.text.replaceAll('{{schema}}', quoteIdent(schema)).replaceAll('{{dims}}', String(dims)),
        )
        .join('\n'),
  };
  if (dir === MIGRATIONS_DIR) cached = migrations;
  return migrations;
}
