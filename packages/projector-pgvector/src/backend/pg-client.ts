import pg from 'pg';
import { MemError } from '@mem/core';
import type { Sql, SqlClient } from './sql.js';

/** DATABASE_URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Connects one `pg` client to `url`. One connection, not a pool: a projector applies batches in
 * order, and transactions are serialised on it. A refused or failed connection is IO_FAILED
 * naming the (redacted) URL.
 */
export async function connectPg(url: string): Promise<SqlClient> {
  try {
    new URL(url);
  } catch {
    throw new MemError(
      'CONFIG_INVALID',
      `DATABASE_URL is not a URL: expected postgres://user:password@host:5432/database`,
      { variable: 'DATABASE_URL' },
    );
  }
  const client = new pg.Client({ connectionString: url });
  // An idle connection can drop (server restart); without a listener that is an uncaught error.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new MemError(
      'IO_FAILED',
      `cannot connect to DATABASE_URL ${redactUrl(url)}: ${(error as Error).message}`,
      { url: redactUrl(url) },
      { cause: error },
    );
  }
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const sql: Sql = {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await client.query(text, params as unknown[])).rows as Row[];
    },
    async exec(text: string) {
      await client.query(text);
    },
  };
  let closed = false;
  return {
    kind: 'pg',
    query: (text, params) => serial(() => sql.query(text, params)),
    exec: (text) => serial(() => sql.exec(text)),
    transaction: (fn) =>
      serial(async () => {
        await client.query('BEGIN');
        try {
          const result = await fn(sql);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
    async close() {
      if (closed) return;
      closed = true;
      await serial(() => client.end());
    },
  };
}
