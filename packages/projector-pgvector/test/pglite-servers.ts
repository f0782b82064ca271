import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll } from 'vitest';

/** A PGlite in memory with pgvector, made in the enclosing suite's beforeAll and closed after it. */
export function usePglite(): { readonly db: PGlite } {
  let db: PGlite | undefined;
  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
  });
  afterAll(async () => {
    await db?.close();
  });
  return {
    get db() {
      if (!db) throw new Error('usePglite: the PGlite instance is made in beforeAll');
      return db;
    },
  };
}

/**
 * A PGlite served over the Postgres wire protocol on loopback (@electric-sql/pglite-socket), so
 * the `pg` driver path runs against a real server; `url` is its DATABASE_URL. `maxConnections`
 * (default 1, the library's) lets several processes connect at once, as to one Postgres.
 */
export function usePgliteWire(options: { maxConnections?: number } = {}): {
  readonly url: string;
  readonly db: PGlite;
} {
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    server = new PGLiteSocketServer({
      db,
      port: 0,
      host: '127.0.0.1',
      ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
    });
    await server.start();
    url = `postgres://postgres:postgres@${server.getServerConn()}/postgres`;
  });
  afterAll(async () => {
    await server?.stop();
    await db?.close();
  });
  return {
    get url() {
      if (!url) throw new Error('usePgliteWire: the server starts in beforeAll');
      return url;
    },
    /** The served database itself, for a test that inspects what a client left in it. */
    get db() {
      if (!db) throw new Error('usePgliteWire: the server starts in beforeAll');
      return db;
    },
  };
}
