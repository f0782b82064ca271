import type { PGlite } from '@electric-sql/pglite';
import type { Sql, SqlClient } from './sql.js';

/**
 * A SqlClient over a PGlite instance. PGlite is one connection: its own lock makes a plain
 * query wait while a transaction runs, so a reader sharing the instance never sees half a batch.
 * `release` is what close does (the registry's reference count, or nothing for a caller's instance).
 */
export function pgliteClient(db: PGlite, release: () => Promise<void>): SqlClient {
  let closed = false;
  const on = (target: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await target.query<Row>(text, params as unknown[])).rows;
    },
    async exec(text: string) {
      await target.exec(text);
    },
  });
  return {
    kind: 'pglite',
    ...on(db),
    transaction: (fn) => db.transaction((tx) => fn(on(tx))),
    async close() {
      if (closed) return;
      closed = true;
      await release();
    },
  };
}
