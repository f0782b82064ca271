import type { Sql, SqlClient } from '../backend/sql.js';
import { quoteIdent } from './identifiers.js';
import type { Migrations } from './migrations.js';

/** What the rows of a projection depend on besides the log: a change is a rebuild, never a migration. */
export interface SchemaIdentity {
  projectorVersion: number;
  embedder: string;
  dims: number;
}

/** memory_meta rows, as stored. */
export type Meta = Record<string, string>;

/**
 * Makes `schema` hold this projector's tables for `identity`: kept when its memory_meta says the
 * same projector version, migrations and embedder wrote it; otherwise dropped and created afresh
 * (empty, so the engine replays the log into it). Serialised across processes by an advisory lock.
 * Returns whether it was (re)created.
 */
export async function prepareSchema(
  client: SqlClient,
  schema: string,
  identity: SchemaIdentity,
  migrations: Migrations,
  stateDir: string,
): Promise<{ created: boolean }> {
  const expected: Meta = {
    projector_version: String(identity.projectorVersion),
    schema_fingerprint: migrations.fingerprint,
    embedder: identity.embedder,
    dims: String(identity.dims),
  };
  return client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mem-pgvector:${schema}`]);
    const meta = await readMeta(tx, schema);
    if (meta && Object.entries(expected).every(([key, value]) => meta[key] === value))
      return { created: false };
    const q = quoteIdent(schema);
    await tx.exec(`DROP SCHEMA IF EXISTS ${q} CASCADE; CREATE SCHEMA ${q};`);
    await tx.exec(migrations.render(schema, identity.dims));
    const rows = Object.entries({ ...expected, state_dir: stateDir }).sort(([a], [b]) =>
      a < b ? -1 : 1,
    );
    await tx.query(
      `INSERT INTO ${q}.memory_meta (key, value) SELECT * FROM unnest($1::text[], $2::text[])`,
      [rows.map(([k]) => k), rows.map(([, v]) => v)],
    );
    return { created: true };
  });
}

/** memory_meta of `schema`, or null when it has none (a new or foreign schema). */
export async function readMeta(sql: Sql, schema: string): Promise<Meta | null> {
  const [present] = await sql.query<{ present: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [`${quoteIdent(schema)}.memory_meta`],
  );
  if (!present?.present) return null;
  const rows = await sql.query<{ key: string; value: string }>(
    `SELECT key, value FROM ${quoteIdent(schema)}.memory_meta`,
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
