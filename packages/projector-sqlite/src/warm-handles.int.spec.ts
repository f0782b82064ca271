import { join } from 'node:path';
import { projectStretch } from '@mem/engine';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, fixturePayloads, projected, tempRoot } from '../test/support.js';
import { projectorSqlite } from './projector.js';
import { removeDatabaseFiles } from './store-files.js';
import { canonicalBytes } from './canonical-bytes.js';
import { evict } from './warm-handles.js';

const P = 'demo';
const events = projected(chainEvents(P, fixturePayloads()));

/** A store holding the fixture's events, sealed, its handle closed (so parked). */
async function built(target: ReturnType<typeof tempRoot>['target']) {
  const handle = await projectorSqlite.init(target);
  await projectStretch(projectorSqlite, handle, P, events);
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
  return handle;
}

describe('parked item-store connections', () => {
  let root: ReturnType<typeof tempRoot>;
  let live: string;
  beforeEach(() => {
    root = tempRoot();
    live = join(root.target.stateDir, 'items.sqlite');
  });
  afterEach(() => root.cleanup());

  it('the next init of a store takes the connection its last close parked: nothing opened or prepared again', async () => {
    const first = await built(root.target);
    const again = await projectorSqlite.init(root.target);
    try {
      expect(again.db).toBe(first.db);
      expect(again.statements).toBe(first.statements);
      expect(again.db.open).toBe(true);
      expect(await projectorSqlite.position(again, P)).toEqual({
        seq: events.at(-1)!.event.seq,
        head: events.at(-1)!.hash,
      });
      // Sealed by the first handle: the parked one says so, it does not carry `dirty` over.
      expect(again.dirty).toBe(false);
    } finally {
      await projectorSqlite.close(again);
    }
  });

  it('reads what another connection committed while it was parked', async () => {
    await built(root.target);
    const other = new Database(live);
    try {
      other
        .prepare(`UPDATE projection_state SET last_seq = 1, head = 'x' WHERE project = ?`)
        .run(P);
    } finally {
      other.close();
    }
    const again = await projectorSqlite.init(root.target);
    try {
      expect(await projectorSqlite.position(again, P)).toEqual({ seq: 1, head: 'x' });
    } finally {
      await projectorSqlite.close(again);
    }
  });

  it('a store deleted under it is opened anew, empty, never through the parked connection', async () => {
    const first = await built(root.target);
    removeDatabaseFiles(live);
    const again = await projectorSqlite.init(root.target);
    try {
      expect(again.db).not.toBe(first.db);
      expect(first.db.open).toBe(false);
      expect(await projectorSqlite.position(again, P)).toBeNull();
    } finally {
      await projectorSqlite.close(again);
    }
  });

  it('a store another projector version wrote is emptied, as a fresh open empties it', async () => {
    const first = await built(root.target);
    const other = new Database(live);
    try {
      other.prepare(`UPDATE projector_meta SET value = '0' WHERE key = 'version'`).run();
    } finally {
      other.close();
    }
    const again = await projectorSqlite.init(root.target);
    try {
      expect(again.db).not.toBe(first.db);
      expect(await projectorSqlite.position(again, P)).toBeNull();
      expect(again.dirty).toBe(true);
    } finally {
      await projectorSqlite.close(again);
    }
  });

  it('a store another process installed while it was parked, its checkpoint never run, is opened afresh and the file then holds the installed store', async () => {
    // The installed store: another project's, sealed in a root of its own, nothing parked on it.
    const other = tempRoot();
    try {
      const handle = await projectorSqlite.init(other.target);
      await projectStretch(
        projectorSqlite,
        handle,
        'other',
        projected(chainEvents('other', fixturePayloads())),
      );
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      evict(other.target.stateDir);
      const installed = join(other.target.stateDir, 'items.sqlite');
      const first = await built(root.target);
      // What an install killed between its backup's commit and its checkpoint leaves: the new
      // store committed in the -wal, the file's own pages the old store's (install-store.ts).
      const source = new Database(installed, { readonly: true, fileMustExist: true });
      try {
        await source.backup(live);
      } finally {
        source.close();
      }
      const again = await projectorSqlite.init(root.target);
      expect(again.db).not.toBe(first.db);
      expect(await projectorSqlite.position(again, 'other')).not.toBeNull();
      await projectorSqlite.seal(again);
      await projectorSqlite.close(again);
      expect(canonicalBytes(live).equals(canonicalBytes(installed))).toBe(true);
    } finally {
      other.cleanup();
    }
  });

  it('a reset closes the parked connection first and the next init reads the emptied store', async () => {
    const first = await built(root.target);
    await projectorSqlite.reset(root.target);
    expect(first.db.open).toBe(false);
    const again = await projectorSqlite.init(root.target);
    try {
      expect(await projectorSqlite.position(again, P)).toBeNull();
    } finally {
      await projectorSqlite.close(again);
    }
  });
});
