import { projectStretch } from '@mem/engine';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chainEvents, fixturePayloads, projected, tempRoot } from '../test/support.js';
import { SCRATCH_CACHE_KIB } from './open-database.js';
import { projectorSqlite } from './projector.js';
import { itemStorePath } from './store-files.js';

/** Each database of `db` (main and attached) → its page cache in KiB (cache_size is -KiB). */
function cachesOf(db: Database.Database): Record<string, number> {
  const schemas = db.pragma('database_list') as { name: string }[];
  return Object.fromEntries(
    schemas
      .filter(({ name }) => name !== 'temp')
      .map(({ name }) => [name, -(db.pragma(`${name}.cache_size`, { simple: true }) as number)]),
  );
}

/** A method of better-sqlite3's Database as it is before a spy replaces it. */
function original<F>(name: 'exec' | 'backup'): F {
  return Object.getOwnPropertyDescriptor(Database.prototype, name)!.value as F;
}

describe('a canonical seal', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    root.cleanup();
  });

  // Why it matters: glibc keeps the pages a closed connection's cache freed resident under
  // later allocations, so each such cache stays in the process's RSS (issue 15 target 5).
  it('reads and writes its scratch files, and the files they attach, through small page caches', async () => {
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(
      projectorSqlite,
      handle,
      'demo',
      projected(chainEvents('demo', fixturePayloads())),
    );
    const live = itemStorePath(root.target.stateDir);
    const seen: Record<string, number>[] = [];
    const record = (db: Database.Database) => {
      if (db.name !== live) seen.push(cachesOf(db));
    };
    const exec = original<(this: Database.Database, sql: string) => Database.Database>('exec');
    vi.spyOn(Database.prototype, 'exec').mockImplementation(function (
      this: Database.Database,
      sql: string,
    ) {
      record(this);
      return exec.call(this, sql);
    });
    const backup =
      original<
        (
          this: Database.Database,
          ...args: Parameters<Database.Database['backup']>
        ) => ReturnType<Database.Database['backup']>
      >('backup');
    vi.spyOn(Database.prototype, 'backup').mockImplementation(function (
      this: Database.Database,
      ...args: Parameters<Database.Database['backup']>
    ) {
      record(this);
      return backup.apply(this, args);
    });
    try {
      await projectorSqlite.seal(handle);
    } finally {
      await projectorSqlite.close(handle);
    }
    expect(SCRATCH_CACHE_KIB).toBeLessThanOrEqual(2000);
    // The FTS scratch (with the live store attached), the copy (live and FTS scratch attached),
    // the copy read by the install: every one was seen, and none cached more.
    const schemas = new Set(seen.flatMap((caches) => Object.keys(caches)));
    expect([...schemas].sort()).toEqual(['fts', 'live', 'main']);
    expect(seen.filter((caches) => 'live' in caches && 'fts' in caches).length).toBeGreaterThan(0);
    for (const caches of seen)
      for (const kib of Object.values(caches)) expect(kib).toBeLessThanOrEqual(SCRATCH_CACHE_KIB);
  });
});
