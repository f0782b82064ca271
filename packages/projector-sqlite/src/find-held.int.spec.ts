import { itemId } from '@mem/core';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseFind, sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';
import type { ItemFindQuery } from './item-rows.js';

/*
 * A driven keyword find's held-back count (item-reads.ts heldAmong) costs the smaller of its
 * matches and the project's held rows: an anchor's few matches in a project of many expired
 * facts are judged one by one, never by reading every expired row. Answers as the reference
 * ranking (keywordBudget 0: the hits joined to their items, HELD_BACK on each).
 */
const P = 'held';
const thread = itemId(P, 1);
const EXPIRED = 40;
const payloads: Record<string, unknown>[] = [
  { type: 'item_added', item_type: 'thread', summary: 'Theme loader rework' },
  // Four facts on the thread, the second expired, the third due for review.
  ...Array.from({ length: 4 }, (_, i) => ({
    type: 'item_added',
    item_type: 'fact',
    summary: `anchored loader fact ${i}`,
    anchors: [thread],
    ...(i === 1 ? { valid_until: '2026-01-01T00:00:00.000Z' } : {}),
    ...(i === 2 ? { review_after: '2026-02-01T00:00:00.000Z' } : {}),
  })),
  // Many expired facts elsewhere in the project, holding the same words.
  ...Array.from({ length: EXPIRED }, (_, i) => ({
    type: 'item_added',
    item_type: 'fact',
    summary: `expired loader fact ${i}`,
    valid_until: '2026-01-0' + String((i % 9) + 1) + 'T00:00:00.000Z',
  })),
  // An open task on the thread's tree, opened long ago (held as open work at the clock below).
  { type: 'item_added', item_type: 'task', summary: 'old loader task', parent: thread },
];
const base = baseFind(P, ['"loader"', '"fact"']);

let root: ReturnType<typeof tempRoot>;
let db: Database.Database;
beforeAll(async () => {
  root = tempRoot();
  ({ db } = await sealedStoreOf(root.target, P, payloads));
});
afterAll(() => {
  db.close();
  root.cleanup();
});

/**
 * Each run of a find's statements that read the project's held rows (the partial indexes of
 * expiry, review and open work): its SQL and the row cap it was given (@most, or none).
 * Trigger: these rows cannot be counted from outside SQLite, so the reads are checked bounded.
 */
function heldReadsOf(run: () => unknown): { capped: boolean; most: number | undefined }[] {
  const reads: { capped: boolean; most: number | undefined }[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!sql.includes('INDEXED BY item_expiring')) return statement;
    const capped = sql.includes('LIMIT @most');
    const wrap =
      <T extends (...args: never[]) => unknown>(f: T) =>
      (...args: Parameters<T>) => {
        const params = args[0] as { most?: number } | undefined;
        reads.push({ capped, most: params?.most });
        return f(...args);
      };
    return Object.assign(statement, {
      get: wrap(statement.get.bind(statement)),
      all: wrap(statement.all.bind(statement)),
    });
  }) as typeof db.prepare;
  try {
    run();
  } finally {
    db.prepare = prepare;
  }
  return reads;
}

const answer = (found: ReturnType<ReturnType<typeof itemReader>['findItems']>) => ({
  total: found.total,
  heldBackTotal: found.heldBackTotal,
  heldBack: found.heldBack.map((r) => r.id),
  items: found.items.map((r) => [r.id, r.relevance_rank]),
});

describe('a driven keyword find’s held-back count', () => {
  it.each<[string, Partial<ItemFindQuery>]>([
    ['an anchor', { anchor: thread }],
    ['an anchor, stale ones too', { anchor: thread, includeStale: true }],
    // Years later: the task has been open past OPEN_MAX_DAYS.
    [
      'a parent',
      { parent: thread, phrases: ['"loader"', '"task"'], now: new Date('2030-01-01T00:00:00Z') },
    ],
  ])('%s: reads no more rows than its matches, answering as the reference', (_, change) => {
    const query = { ...base, ...change };
    let found: ReturnType<ReturnType<typeof itemReader>['findItems']> | undefined;
    const reads = heldReadsOf(() => (found = itemReader(db).findItems(query)));
    const reference = itemReader(db, { keywordBudget: 0 }).findItems(query);
    expect(answer(found!)).toEqual(answer(reference));
    expect(found!.heldBackTotal).toBeGreaterThan(0);
    // The thread's matches are at most its five items: the project's 40 expired rows are read
    // only to one past that many, never all of them.
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read.capped).toBe(true);
      expect(read.most).toBeLessThanOrEqual(6);
    }
  });
});
