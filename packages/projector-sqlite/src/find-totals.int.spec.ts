import { join } from 'node:path';
import Database from 'better-sqlite3';
import { OPEN_MAX_DAYS, itemId } from '@mem/core';
import { projectStretch, type ProjectionTarget } from '@mem/engine';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  canonicalContents,
  chainEvents,
  projected,
  rebuiltContents,
  tempRoot,
} from '../test/support.js';
import { itemReader } from './item-reads.js';
import type { ItemFindQuery } from './item-rows.js';
import { projectorSqlite } from './projector.js';

// Issue 13 §6: a keyword find counts its exact total in item_fts (migration 0025) and its
// held-back matches from the rows freshness can hold. These pin that the answer is the one the
// rows give (every match of the projects, tiers, type and status asked; held back as the
// freshness inputs say), through every change of an item's text and scope, and that the count
// reads no item row per match.

const A = 'loader-a.x_1';
const B = 'other';
const a = (seq: number) => itemId(A, seq);

const payloadsA = [
  { type: 'item_added', item_type: 'thread', summary: 'Theme loader rework' },
  { type: 'item_added', item_type: 'task', summary: 'Port the theme loader', parent: a(1) },
  { type: 'item_added', item_type: 'fact', summary: 'The loader caches themes', anchors: [a(1)] },
  {
    type: 'item_added',
    item_type: 'fact',
    summary: 'Loader cache expires',
    valid_until: '2026-09-01T00:00:00.000Z',
  },
  {
    type: 'item_added',
    item_type: 'rule',
    summary: 'Review the loader yearly',
    review_after: '2027-01-01T00:00:00Z',
  },
  { type: 'item_added', item_type: 'task', summary: 'Unrelated chore' },
  {
    type: 'item_added',
    item_type: 'reminder',
    summary: 'Loader demo',
    remind_at: '2026-09-01T00:00:00Z',
  },
  { type: 'item_added', item_type: 'task', summary: 'Deleted loader task' },
  { type: 'item_deleted', item: a(8), reason: 'wrong' },
  { type: 'item_updated', item: a(6), summary: 'Chore: bump the loader', reason: 'clearer' },
  { type: 'item_updated', item: a(2), detail: 'the themes cache too', reason: 'more' },
  { type: 'item_resolved', item: a(2), from: 'open', status: 'done', reason: 'merged' },
  { type: 'item_attention_set', item: a(3), attention: 'archive', reason: 'filed' },
  { type: 'item_attention_set', item: a(5), attention: 'reference', reason: 'background' },
  { type: 'item_updated', item: a(3), summary: 'The renderer caches themes', reason: 'moved' },
];
const payloadsB = [
  { type: 'item_added', item_type: 'task', summary: 'Theme loader in the other project' },
  { type: 'item_added', item_type: 'fact', summary: 'Loader facts elsewhere' },
];

const base: Omit<ItemFindQuery, 'phrases'> = {
  projects: [A],
  includeDeleted: false,
  attention: ['active', 'reference'],
  recencyWeight: 0.5,
  includeStale: false,
  now: new Date('2026-08-18T00:00:00Z'),
  limit: 20,
  offset: 0,
  candidates: 1000,
  heldBackLimit: 2,
};

const LATER = new Date('2027-06-01T00:00:00Z');
const YEARS_LATER = new Date('2028-01-01T00:00:00Z');
const queries: [string, Partial<ItemFindQuery>][] = [
  ['one project', {}],
  ['both projects', { projects: [A, B] }],
  ['the other project', { projects: [B] }],
  ['no project', { projects: [] }],
  ['deleted ones too', { includeDeleted: true }],
  ['every tier', { attention: ['active', 'reference', 'archive'] }],
  ['archive only', { attention: ['archive'] }],
  ['a type', { type: 'fact', projects: [A, B] }],
  ['a status', { status: 'open' }],
  ['a status no item has', { status: 'proposed' }],
  ['a type outside the codes', { type: 'constructor' }],
  ['expired and review-due held back', { now: LATER }],
  ['the same delivered', { now: LATER, includeStale: true }],
  ['open work held back too', { now: YEARS_LATER, projects: [A, B] }],
  ['held back, deleted too', { now: YEARS_LATER, includeDeleted: true }],
];

interface Row {
  project: string;
  id: string;
  node_id: number;
  type: string;
  status: string | null;
  attention: string;
  deleted_at: string | null;
  valid_until: string | null;
  review_after: string | null;
  created_ts: string;
  created_seq: number;
}

/** What find must answer, from the rows: node_fts's hits, filtered and judged in JavaScript. */
function expected(db: Database.Database, query: ItemFindQuery) {
  const hits = new Set(
    (
      db
        .prepare(`SELECT rowid FROM node_fts WHERE node_fts MATCH ?`)
        .all(query.phrases!.join(' OR ')) as {
        rowid: number;
      }[]
    ).map((r) => r.rowid),
  );
  const at = (iso: string | null) => iso !== null && Date.parse(iso) <= query.now.getTime();
  const openCut = query.now.getTime() - OPEN_MAX_DAYS * 86_400_000;
  const rows = (db.prepare(`SELECT * FROM item ORDER BY created_seq, project, id`).all() as Row[])
    .filter((r) => hits.has(r.node_id) && query.projects.includes(r.project))
    .filter((r) => query.includeDeleted || r.deleted_at === null)
    .filter((r) => (query.attention as string[]).includes(r.attention))
    .filter((r) => query.type === undefined || r.type === query.type)
    .filter((r) => query.status === undefined || r.status === query.status);
  const held = rows.filter(
    (r) =>
      at(r.valid_until) ||
      at(r.review_after) ||
      (['task', 'thread'].includes(r.type) &&
        !['done', 'dropped'].includes(r.status ?? '') &&
        Date.parse(r.created_ts) <= openCut),
  );
  return {
    total: query.includeStale ? rows.length : rows.length - held.length,
    heldBackTotal: held.length,
    heldBack: held.slice(0, query.heldBackLimit).map((r) => r.id),
  };
}

describe('a keyword find counted in item_fts', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  const store = () => join(root.target.stateDir, 'items.sqlite');

  const logs = [
    [A, chainEvents(A, payloadsA)],
    [B, chainEvents(B, payloadsB)],
  ] as const;

  /** Both projects' logs in one rebuild (one catch-up, sealed canonically). */
  async function rebuild(target: ProjectionTarget) {
    const handle = await projectorSqlite.init(target);
    for (const [project, events] of logs)
      await projectStretch(projectorSqlite, handle, project, projected(events));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
  }

  /** Both projects' logs caught up one event at a time, each catch-up sealed in place. */
  async function eventByEvent(target: ProjectionTarget) {
    for (const [project, events] of logs)
      for (const event of events) {
        const handle = await projectorSqlite.init(target);
        await projectStretch(projectorSqlite, handle, project, projected([event]));
        await projectorSqlite.seal(handle);
        await projectorSqlite.close(handle);
      }
  }

  describe.each([
    ['caught up event by event', eventByEvent],
    ['rebuilt', rebuild],
  ] as const)('%s', (_, build) => {
    // One store per build, read by every filter set (each read only reads).
    let built: ReturnType<typeof tempRoot>;
    let db: Database.Database;
    beforeAll(async () => {
      built = tempRoot();
      await build(built.target);
      db = new Database(join(built.target.stateDir, 'items.sqlite'), { readonly: true });
    });
    afterAll(() => {
      db.close();
      built.cleanup();
    });

    it.each(queries)(
      '%s: its total, held-back count and held-back list are the ones the rows give',
      (_, filter) => {
        for (const phrases of [['"loader"'], ['"theme"', '"cache"'], ['"renderer"'], ['"chore"']]) {
          const query: ItemFindQuery = { ...base, ...filter, phrases };
          const found = itemReader(db).findItems(query);
          expect(
            {
              total: found.total,
              heldBackTotal: found.heldBackTotal,
              heldBack: found.heldBack.map((r) => r.id),
            },
            phrases.join(' OR '),
          ).toEqual(expected(db, query));
        }
      },
    );
  });

  it('caught up event by event, item_fts holds what a rebuild indexes (digest), and the canonical bytes agree', async () => {
    await rebuild(root.target);
    const whole = await rebuiltContents(root.target);
    root.cleanup();
    root = tempRoot();
    await eventByEvent(root.target);
    const caughtUp = await canonicalContents(root.target);
    expect(caughtUp.digest['item_fts']).toBeDefined();
    expect(caughtUp.digest).toEqual(whole.digest);
    expect(caughtUp.bytes.equals(whole.bytes)).toBe(true);
  });

  it('counts in item_fts and judges freshness on the rows that can be held: no statement joins every hit to its item', async () => {
    await rebuild(root.target);
    const db = new Database(store(), { readonly: true });
    const statements: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = (sql: string) => {
      statements.push(sql);
      return prepare(sql);
    };
    try {
      const found = itemReader(db).findItems({ ...base, now: LATER, phrases: ['"loader"'] });
      expect(found.heldBackTotal).toBeGreaterThan(0);
      const counts = statements.filter((sql) => /count\(\*\)/.test(sql));
      expect(counts.some((sql) => /FROM item_fts WHERE item_fts MATCH/.test(sql))).toBe(true);
      // The page ranks its candidates over node_fts (BM25 over every node); nothing else may
      // read node_fts's hits, each joined to its item row. Each phrase's hits are counted to a
      // cap first (whether it is common: keyword-candidates.ts, DECISION), no item row read.
      const phraseCount =
        'SELECT count(*) AS hits FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH @phrase LIMIT @cap)';
      const joinsHits = statements.filter(
        (sql) =>
          /node_fts MATCH/.test(sql) &&
          !/ORDER BY f\.rank LIMIT @candidates/.test(sql) &&
          sql !== phraseCount,
      );
      expect(joinsHits).toEqual([]);
      for (const sql of counts) {
        const plan = (
          prepare(`EXPLAIN QUERY PLAN ${sql}`).all(emptyParams(sql)) as { detail: string }[]
        )
          .map((r) => r.detail)
          .join('\n');
        // Neither the hits nor every item of the project: item_fts, or the held-back indexes.
        expect(plan).not.toMatch(/SCAN i\b|SEARCH i USING [A-Z ]*?(INDEX \w+ |KEY )\(project=\?\)/);
      }
    } finally {
      db.close();
    }
  });
});

/** Each named parameter of `sql` bound to null: a plan needs them bound, not meaningful. */
function emptyParams(sql: string): Record<string, null> {
  return Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null]));
}
