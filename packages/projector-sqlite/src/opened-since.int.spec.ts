import { OPEN_MAX_DAYS, itemId } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';
import type { ItemFindQuery } from './item-rows.js';

/*
 * Issue 13 §4: an unresolved task is open since it last became open (opened_ts, migration
 * 0027), not since its creation. The test chain's events are one second apart from T0.
 */
const P = 'opened';
const T0 = Date.parse('2026-08-17T09:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const task = (summary: string, status?: string) => ({
  type: 'item_added',
  item_type: 'task',
  summary,
  ...(status !== undefined ? { status } : {}),
});
const payloads = [
  task('port the loader', 'proposed'), // seq 1, T0
  task('ship the theme'), // seq 2, T0 + 1 s, open from creation
  { type: 'item_updated', item: itemId(P, 1), status: 'open', reason: 'r' }, // T0 + 2 s: opened now
  { type: 'item_updated', item: itemId(P, 2), summary: 'ship the theme loader', reason: 'r' }, // no status
  task('fix the loader cache', 'in_progress'), // seq 5, T0 + 4 s
  { type: 'item_updated', item: itemId(P, 5), status: 'open', reason: 'r' }, // T0 + 5 s: open work still
  { type: 'item_updated', item: itemId(P, 2), status: 'open', reason: 'r' }, // T0 + 6 s: open already
  { type: 'item_added', item_type: 'fact', summary: 'the loader caches themes' }, // never open
  task('review the loader', 'proposed'), // seq 9, T0 + 8 s
  { type: 'item_updated', item: itemId(P, 9), status: 'in_progress', reason: 'r' }, // T0 + 9 s: opened
];

describe('opened_ts', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('is a task’s creation, or the update that last made it open work (open or in progress) from a status that is not', async () => {
    const { db } = await sealedStoreOf(root.target, P, payloads);
    try {
      const reads = itemReader(db);
      const rows = reads.itemsById(
        [P],
        [1, 2, 5, 8, 9].map((seq) => itemId(P, seq)),
      );
      expect(Object.fromEntries(rows.map((r) => [r.id, [r.created_ts, r.opened_ts]]))).toEqual({
        [itemId(P, 1)]: [at(0), at(2)],
        [itemId(P, 2)]: [at(1), at(1)],
        [itemId(P, 5)]: [at(4), at(4)],
        [itemId(P, 8)]: [at(7), null],
        // A proposal taken straight to in progress is open from then, not from its proposal.
        [itemId(P, 9)]: [at(8), at(9)],
      });
      // Open for OPEN_MAX_DAYS at 1.5 s past T0's: only the task open since T0 + 1 s is held
      // back (created at T0, the proposed task was opened at T0 + 2 s).
      const now = new Date(T0 + OPEN_MAX_DAYS * 86_400_000 + 1500);
      const query: ItemFindQuery = {
        projects: [P],
        includeDeleted: false,
        includeStale: false,
        attention: ['active', 'reference'],
        recencyWeight: 0.5,
        now,
        limit: 10,
        offset: 0,
        candidates: 10,
        heldBackLimit: 10,
      };
      for (const phrases of [undefined, ['"loader"', '"theme"']]) {
        const found = reads.findItems({ ...query, ...(phrases ? { phrases } : {}) });
        expect(
          found.heldBack.map((r) => r.id),
          String(phrases),
        ).toEqual([itemId(P, 2)]);
        expect(found.heldBackTotal).toBe(1);
        expect(found.items.map((r) => r.id).sort()).toEqual(
          [1, 5, 8, 9].map((seq) => itemId(P, seq)).sort(),
        );
      }
    } finally {
      db.close();
    }
  });
});
