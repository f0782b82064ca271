import type { Embedder } from '@mem/embed';
import type { Backend } from './backend/open-backend.js';
import type { StatementSql } from './apply/statements.js';

/** What `init` opens: the backend, the projection's schema and statements, and the embedder filling it. */
export interface PgvectorHandle {
  backend: Backend;
  sql: StatementSql;
  embedder: Embedder;
  /** Where the rows live (data directory or redacted URL), for errors. */
  location: string;
  /** PGlite in this process (its files are mem's to scrub), not a shared Postgres server. */
  embedded: boolean;
  /** A forgotten event was applied since the last seal: the seal scrubs the old text's files. */
  forgot: boolean;
}
