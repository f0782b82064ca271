import { MemError } from '@mem/core';
import type { Sql } from './sql.js';

/** pgvector as installed in the database the projection lives in. */
export interface VectorExtension {
  version: string;
  /** The schema its type and operators live in. */
  schema: string;
  /** 0.8+: iterative index scans keep filtered recall from starving. */
  iterativeScan: boolean;
}

const MINIMUM = [0, 7, 0] as const;

/**
 * Finds pgvector (creating it when this role may), or explains the fix: a missing extension on
 * DATABASE_URL is CONFIG_INVALID naming `CREATE EXTENSION vector` and the version needed, never
 * a stack trace from the first `vector(768)` column.
 */
export async function ensureVectorExtension(sql: Sql, where: string): Promise<VectorExtension> {
  let found = await installed(sql);
  if (!found) {
    try {
      await sql.exec('CREATE EXTENSION IF NOT EXISTS vector');
    } catch {
      // No privilege or not available: explained below.
    }
    found = await installed(sql);
  }
  if (!found) {
    const available = await sql.query<{ default_version: string }>(
      `SELECT default_version FROM pg_available_extensions WHERE name = 'vector'`,
    );
    const database =
      (await sql.query<{ db: string }>('SELECT current_database() AS db'))[0]?.db ?? '?';
    const fix =
      available.length === 0
        ? `pgvector is not installed on the server: install pgvector >= 0.7 (CloudNativePG's images ship it), then run CREATE EXTENSION vector; in database ${database}`
        : `pgvector ${available[0]!.default_version} is available but not created in database ${database}: run CREATE EXTENSION vector; as its owner or a superuser (on CloudNativePG, declare it in Database.spec.extensions); pgvector >= 0.7 is needed`;
    throw new MemError('CONFIG_INVALID', `${where} has no vector extension. ${fix}`, {
      where,
      database,
      available: available.length > 0,
      fix: 'CREATE EXTENSION vector',
    });
  }
  if (compare(found.version, MINIMUM) < 0) {
    throw new MemError(
      'CONFIG_INVALID',
      `${where} has pgvector ${found.version}, but >= 0.7 is needed (HNSW over vector_cosine_ops): run ALTER EXTENSION vector UPDATE;`,
      {
        where,
        version: found.version,
        fix: 'ALTER EXTENSION vector UPDATE',
      },
    );
  }
  return { ...found, iterativeScan: compare(found.version, [0, 8, 0]) >= 0 };
}

async function installed(sql: Sql): Promise<{ version: string; schema: string } | undefined> {
  const rows = await sql.query<{ version: string; schema: string }>(
    `SELECT e.extversion AS version, n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
  );
  return rows[0];
}

function compare(version: string, minimum: readonly number[]): number {
  const parts = version.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < minimum.length; i++) {
    const diff = (parts[i] ?? 0) - minimum[i]!;
    if (diff !== 0) return diff;
  }
  return 0;
}
