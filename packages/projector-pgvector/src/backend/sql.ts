/** What a statement runs on: a connection, or the transaction open on it. */
export interface Sql {
  /** One statement with $n parameters; its rows. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Statements without parameters, several at once (DDL). */
  exec(text: string): Promise<void>;
}

/**
 * One connection to the projection's database, PGlite in process or Postgres through `pg`:
 * the small interface every part of the projector talks to.
 */
export interface SqlClient extends Sql {
  readonly kind: 'pglite' | 'pg';
  /** Runs `fn` between BEGIN and COMMIT (ROLLBACK when it throws); nothing else runs on the connection meanwhile. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The SQLSTATE of a database error, if it carries one (PGlite and pg both put it in `code`). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
