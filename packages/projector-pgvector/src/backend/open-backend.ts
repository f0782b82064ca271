import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { EMBEDDED_SCHEMA, quoteIdent, sharedSchemaFor } from '../schema/identifiers.js';
import { redactUrl, connectPg } from './pg-client.js';
import { pgliteClient } from './pglite-client.js';
import { acquirePglite } from './pglite-registry.js';
import type { SqlClient } from './sql.js';
import { ensureVectorExtension, type VectorExtension } from './vector-extension.js';

/** Where a pgvector projection lives. */
export interface BackendConfig {
  /** Postgres (pgvector >= 0.7) through `pg`; null or absent: PGlite under `<stateDir>/pg/`. */
  databaseUrl?: string | null | undefined;
  /** A PGlite instance (with the vector extension) the caller owns and shares; wins over both. */
  pglite?: PGlite | undefined;
  /**
   * Test-only: an initialised PGlite data directory that a new embedded projection copies
   * instead of running initdb (the suite's global setup makes one per run). A directory that
   * already holds a cluster is opened as it is. Read from MEM_TEST_PGLITE_TEMPLATE.
   */
  pgliteTemplate?: string | null | undefined;
}

/** An open connection to a projection's database, and which schema of it is the projection. */
export interface Backend {
  client: SqlClient;
  schema: string;
  extension: VectorExtension;
  /** For messages: the data directory or the redacted URL, and the schema. */
  where: string;
}

/** `<stateDir>/pg`: the embedded projection's PGlite data directory. */
export function embeddedDir(stateDir: string): string {
  return join(stateDir, 'pg');
}

/**
 * Opens the backend of `config` for the target at `stateDir`. With `create: false` (readers,
 * resets) an embedded projection that was never created is null instead of a new cluster.
 */
export async function openBackend(
  config: BackendConfig,
  stateDir: string,
  mode: { create: true },
): Promise<Backend>;
export async function openBackend(
  config: BackendConfig,
  stateDir: string,
  mode: { create: false },
): Promise<Backend | null>;
export async function openBackend(
  config: BackendConfig,
  stateDir: string,
  { create }: { create: boolean },
): Promise<Backend | null> {
  let client: SqlClient;
  let schema: string;
  let where: string;
  if (config.pglite) {
    const db = config.pglite;
    client = pgliteClient(db, async () => undefined);
    schema = sharedSchemaFor(stateDir);
    where = `the shared PGlite instance, schema ${schema}`;
  } else if (config.databaseUrl) {
    client = await connectPg(config.databaseUrl);
    schema = sharedSchemaFor(stateDir);
    where = `DATABASE_URL ${redactUrl(config.databaseUrl)}, schema ${schema}`;
  } else {
    const dir = embeddedDir(stateDir);
    if (!create && !existsSync(join(dir, 'PG_VERSION'))) return null;
    const { db, release } = await acquirePglite(dir, config.pgliteTemplate);
    client = pgliteClient(db, release, { counted: true });
    schema = EMBEDDED_SCHEMA;
    where = `the embedded Postgres at ${dir}`;
  }
  try {
    const extension = await ensureVectorExtension(client, where);
    const [visible] = await client.query<{ visible: boolean }>(
      'SELECT $1 = ANY(current_schemas(true)) AS visible',
      [extension.schema],
    );
    // The vector type and operators are named unqualified; a projection's own tables always are qualified.
    if (!visible?.visible) await client.exec(`SET search_path TO ${quoteIdent(extension.schema)}`);
    return { client, schema, extension, where };
  } catch (error) {
    await client.close();
    throw error;
  }
}
