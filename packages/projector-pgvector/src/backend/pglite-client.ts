import type { PGlite } from '@electric-sql/pglite';
import type { ChangeCount, Sql, SqlClient } from './sql.js';

/** Per database, shared by every client over it in this process (SqlClient.changes). */
const counts = new WeakMap<PGlite, { started: number; finished: number }>();

/**
 * A SqlClient over a PGlite instance. PGlite is one connection: its own lock makes a plain
 * query wait while a transaction runs, so a reader sharing the instance never sees half a batch.
 * `release` is what close does (the registry's reference count, or nothing for a caller's instance).
 * `counted`: this process opened the instance and every statement on it goes through such a
 * client (the registry's embedded PGlite), so the client keeps `changes`; a caller's instance,
 * which the caller may write through its own handle, is not counted.
 */
export function pgliteClient(
  db: PGlite,
  release: () => Promise<void>,
  { counted = false }: { counted?: boolean } = {},
): SqlClient {
  let closed = false;
  let count = counted ? counts.get(db) : undefined;
  if (counted && !count) counts.set(db, (count = { started: 0, finished: 0 }));
  /** Runs `fn` counted: started before it is issued, finished once it settled, either way. */
  const counting = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (!count) return fn();
    count.started += 1;
    try {
      return await fn();
    } finally {
      count.finished += 1;
    }
  };
  const on = (target: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    query: <Row>(text: string, params: readonly unknown[] = []) =>
      counting(async () => (await target.query<Row>(text, params as unknown[])).rows),
    exec: (text: string) =>
      counting(async () => {
        await target.exec(text);
      }),
  });
  const client: SqlClient = {
    kind: 'pglite',
    ...on(db),
    transaction: (fn) => counting(() => db.transaction((tx) => fn(on(tx)))),
    async close() {
      if (closed) return;
      closed = true;
      await release();
    },
  };
  if (!count) return client;
  const changes: ChangeCount = count;
  return {
    ...client,
    changes,
    read: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await db.query<Row>(text, params as unknown[])).rows,
  };
}
