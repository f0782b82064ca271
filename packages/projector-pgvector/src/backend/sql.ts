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
  /**
   * Only where this process alone can write the database (the embedded PGlite it opened): how
   * many statements every client in this process has started and finished on it, reads by
   * `read` left out. Unmoved and equal, nothing was written since; absent, another process or
   * a caller's own handle may write, so nothing read can be kept.
   */
  readonly changes?: ChangeCount;
  /** A statement that writes nothing, so `changes` does not move (absent with it: use query). */
  read?<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `fn` between BEGIN and COMMIT (ROLLBACK when it throws); nothing else runs on the connection meanwhile. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Statements started and finished on one database (see SqlClient.changes). */
export interface ChangeCount {
  readonly started: number;
  readonly finished: number;
}

/** The SQLSTATE of a database error, if it carries one (PGlite and pg both put it in `code`). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
