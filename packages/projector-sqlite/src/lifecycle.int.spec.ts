import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { projectStretch } from '@mem/engine';
import { join } from 'node:path';
import { hasErrorCode } from '@mem/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chainEvents,
  fixturePayloads,
  ftsMatchesNodes,
  projected,
  tempRoot,
} from '../test/support.js';
import { commitPending } from './apply-events.js';
import { digestStore } from './digest.js';
import { nodeId } from './node-id.js';
import { projectorSqlite } from './projector.js';

const P = 'demo';
const events = projected(chainEvents(P, fixturePayloads()));

describe('item store lifecycle', () => {
  let root: ReturnType<typeof tempRoot>;
  let live: string;
  beforeEach(() => {
    root = tempRoot();
    live = join(root.target.stateDir, 'items.sqlite');
  });
  afterEach(() => root.cleanup());

  async function sealedBytes(): Promise<Buffer> {
    const other = tempRoot();
    try {
      const handle = await projectorSqlite.init(other.target);
      await projectStretch(projectorSqlite, handle, P, events);
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      return readFileSync(join(other.target.stateDir, 'items.sqlite'));
    } finally {
      other.cleanup();
    }
  }

  const metaValue = (key: string) => {
    const db = new Database(live, { readonly: true });
    try {
      return (
        db.prepare(`SELECT value FROM projector_meta WHERE key = ?`).get(key) as { value: string }
      ).value;
    } finally {
      db.close();
    }
  };
  it('init creates an empty store marked rebuilding; its first seal writes the canonical copy', async () => {
    const handle = await projectorSqlite.init(root.target);
    expect([metaValue('sealed'), metaValue('rebuilding')]).toEqual(['0', '1']);
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    expect([metaValue('sealed'), metaValue('rebuilding')]).toEqual(['1', '0']);
    expect(await projectorSqlite.position(await projectorSqlite.init(root.target), P)).toBeNull();
  });

  it('a crash between apply and seal of a rebuild keeps it marked rebuilding, and the next seal writes the canonical copy', async () => {
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, events);
    await projectorSqlite.close(handle); // no seal: the crash
    expect([metaValue('sealed'), metaValue('rebuilding')]).toEqual(['0', '1']);
    const reopened = await projectorSqlite.init(root.target);
    await projectorSqlite.seal(reopened);
    await projectorSqlite.close(reopened);
    expect([metaValue('sealed'), metaValue('rebuilding')]).toEqual(['1', '0']);
    expect(readFileSync(live).equals(await sealedBytes())).toBe(true);
  });

  it('a catch-up of a built store keeps node_fts in step with node in place, sealed or not', async () => {
    const firstNode = events.findIndex((e) => e.event.type === 'evidence');
    let handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, events.slice(0, firstNode));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    expect([metaValue('sealed'), metaValue('rebuilding')]).toEqual(['1', '0']);
    handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, events.slice(firstNode));
    await projectorSqlite.close(handle); // no seal: what was committed stands
    expect([metaValue('sealed'), metaValue('rebuilding')]).toEqual(['0', '0']);
    expect(ftsMatchesNodes(root.target.stateDir)).toBe(true);
    const db = new Database(live, { readonly: true });
    try {
      const nodes = db.prepare(`SELECT count(*) AS n FROM node`).get() as { n: number };
      const indexed = db.prepare(`SELECT count(*) AS n FROM node_fts_docsize`).get() as {
        n: number;
      };
      expect(nodes.n).toBeGreaterThan(0);
      expect(indexed.n).toBe(nodes.n);
    } finally {
      db.close();
    }
  });

  it('a refused batch leaves the batches before it applied, across close and reopen', async () => {
    let handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, events.slice(0, 6));
    await expect(projectStretch(projectorSqlite, handle, P, events.slice(8))).rejects.toSatisfy(
      (e) => hasErrorCode(e, 'PROJECTION_FAILED'),
    );
    await projectorSqlite.close(handle);
    handle = await projectorSqlite.init(root.target);
    try {
      expect(await projectorSqlite.position(handle, P)).toEqual({ seq: 6, head: events[5]!.hash });
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('init removes a copy a crashed seal left behind', async () => {
    await projectorSqlite.close(await projectorSqlite.init(root.target));
    writeFileSync(`${live}.sealing`, 'half a database');
    await projectorSqlite.close(await projectorSqlite.init(root.target));
    expect(existsSync(`${live}.sealing`)).toBe(false);
  });

  it('a seal with nothing new leaves the file alone', async () => {
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, events);
    await projectorSqlite.seal(handle);
    const before = statSync(live);
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    await projectorSqlite.close(await projectorSqlite.init(root.target));
    const after = statSync(live);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it.each([
    ['another projector version', `UPDATE projector_meta SET value = '0' WHERE key = 'version'`],
    [
      'another SQLite library',
      `UPDATE projector_meta SET value = '3.0.0' WHERE key = 'sqlite_version'`,
    ],
    ['another schema', `UPDATE schema_migrations SET sha256 = 'x'`],
  ])('init recreates a store written by %s, empty', async (_why, sql) => {
    let handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, events);
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    const db = new Database(live);
    db.exec(sql);
    db.close();
    handle = await projectorSqlite.init(root.target);
    try {
      expect(await projectorSqlite.position(handle, P)).toBeNull();
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('init recreates a file that is not a database', async () => {
    await projectorSqlite.close(await projectorSqlite.init(root.target));
    writeFileSync(
      live,
      'not sqlite at all, just text that is long enough to have a header of sorts',
    );
    const handle = await projectorSqlite.init(root.target);
    await projectorSqlite.close(handle);
    expect([metaValue('sealed'), metaValue('rebuilding')]).toEqual(['0', '1']);
  });

  it('refuses a node whose derived id collides with another node (CONFLICT)', async () => {
    const evidence = events.find((e) => e.event.type === 'evidence')!;
    if (evidence.event.type !== 'evidence') throw new Error('fixture');
    await projectorSqlite.close(await projectorSqlite.init(root.target));
    // Plant a node with the id the evidence will get, under another sha.
    const db = new Database(live);
    db.prepare(
      `INSERT INTO node (id, project, level, kind, text, sha256, seq, created_ts, meta) VALUES (?, ?, 'L0', 'evidence', 'x', ?, 1, 't', '{}')`,
    ).run(nodeId(P, 'L0', evidence.event.sha256), P, 'f'.repeat(64));
    db.close();
    const handle = await projectorSqlite.init(root.target);
    try {
      await expect(projectStretch(projectorSqlite, handle, P, events)).rejects.toSatisfy((e) =>
        hasErrorCode(e, 'CONFLICT'),
      );
      expect(await projectorSqlite.position(handle, P)).toBeNull();
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('a batch failing part-way leaves nothing of itself, after uncommitted batches or opening the transaction, and then holds no write lock', async () => {
    const evidence = events.find((e) => e.event.type === 'evidence')!;
    if (evidence.event.type !== 'evidence') throw new Error('fixture');
    await projectorSqlite.close(await projectorSqlite.init(root.target));
    // The evidence collides (as above): its batch fails after writing the chunks and gates before it.
    const planted = new Database(live);
    planted
      .prepare(
        `INSERT INTO node (id, project, level, kind, text, sha256, seq, created_ts, meta) VALUES (?, ?, 'L0', 'evidence', 'x', ?, 1, 't', '{}')`,
      )
      .run(nodeId(P, 'L0', evidence.event.sha256), P, 'f'.repeat(64));
    planted.close();
    const handle = await projectorSqlite.init(root.target);
    try {
      const failing = events.slice(1);
      expect(failing.findIndex((e) => e.event.type === 'evidence')).toBeGreaterThan(0);
      await projectStretch(projectorSqlite, handle, P, events.slice(0, 1));
      const before = digestStore(handle.db);
      // Inside the transaction the first batch left open: rolled back to its savepoint.
      await expect(projectStretch(projectorSqlite, handle, P, failing)).rejects.toSatisfy((e) =>
        hasErrorCode(e, 'CONFLICT'),
      );
      expect(digestStore(handle.db)).toEqual(before);
      commitPending(handle);
      // Opening the transaction itself: rolled back whole, and the write lock let go.
      await expect(projectStretch(projectorSqlite, handle, P, failing)).rejects.toSatisfy((e) =>
        hasErrorCode(e, 'CONFLICT'),
      );
      expect(digestStore(handle.db)).toEqual(before);
      const other = new Database(live, { timeout: 0 });
      try {
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
      } finally {
        other.close();
      }
      expect(await projectorSqlite.position(handle, P)).toEqual({ seq: 1, head: events[0]!.hash });
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('reset of one project on a missing store does nothing; reset of all empties the file in place and drops a stray journal', async () => {
    await projectorSqlite.reset(root.target, P);
    expect(existsSync(live)).toBe(false);
    let handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, events);
    await projectorSqlite.close(handle);
    // A rollback journal an older version left: it may hold pages of the old store.
    writeFileSync(`${live}-journal`, '');
    const inode = statSync(live).ino;
    await projectorSqlite.reset(root.target);
    expect([statSync(live).ino, existsSync(`${live}-journal`)]).toEqual([inode, false]);
    handle = await projectorSqlite.init(root.target);
    try {
      expect(await projectorSqlite.position(handle, P)).toBeNull();
      expect(handle.db.prepare('SELECT count(*) AS n FROM node').get()).toEqual({ n: 0 });
    } finally {
      await projectorSqlite.close(handle);
    }
  });
});
