import { projectStretch } from '@mem/engine';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, ftsMatchesNodes, projected, tempRoot } from '../test/support.js';
import { projectorSqlite } from './projector.js';
import { itemStorePath } from './store-files.js';

/*
 * A reset of one project (`mem rebuild --project X`) deletes its rows on the writing connection.
 * Since the text indexes are written once a batch (the triggers only note: fts-triggers.ts), the
 * reset flushes those notes itself: its readers, and the replay after it, see node_fts and
 * item_fts in step with the rows before any seal (a reviewer's repro, stop 34: both indexes kept
 * the deleted project's entries and node_fts failed its integrity check until the seal).
 */
const P = 'demo';
const Q = 'other';
const payloads = [
  { type: 'item_added', item_type: 'thread', summary: 'Loader rework zebra' },
  { type: 'item_added', item_type: 'fact', summary: 'Themes cache their fonts zebra' },
];

describe('a reset of one project', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('leaves node_fts and item_fts in step with the rows, after the reset and after its replay', async () => {
    const p = projected(chainEvents(P, payloads));
    const q = projected(chainEvents(Q, payloads));
    let handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, p);
    await projectStretch(projectorSqlite, handle, Q, q);
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);

    await projectorSqlite.reset(root.target, P);
    const db = new Database(itemStorePath(root.target.stateDir), { readonly: true });
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) n FROM item')).toBe(2);
    expect(count("SELECT count(*) n FROM item_fts WHERE item_fts MATCH 'zebra'")).toBe(2);
    expect(count("SELECT count(*) n FROM node_fts WHERE node_fts MATCH 'zebra'")).toBe(2);
    db.close();
    expect(ftsMatchesNodes(root.target.stateDir)).toBe(true);

    handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, p);
    const live = (sql: string) => (handle.db.prepare(sql).get() as { n: number }).n;
    expect(live("SELECT count(*) n FROM item_fts WHERE item_fts MATCH 'zebra'")).toBe(4);
    expect(live("SELECT count(*) n FROM node_fts WHERE node_fts MATCH 'zebra'")).toBe(4);
    await projectorSqlite.close(handle);
    expect(ftsMatchesNodes(root.target.stateDir)).toBe(true);
  });
});
