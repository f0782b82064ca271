import type { ItemStore } from '@mem/projector-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reference, testStore, type TestStore } from '../test/store.js';
import { recallKeyword } from './keyword-recall.js';

/*
 * The keyword leg's work is bounded without timing it: the rows the item store hands back
 * (postings and frequencies) are counted on a real SQLite store, and the bounded answer is
 * compared with the exhaustive one (every term searched) on the same store.
 */

const NODES = 600;
/** Every passage holds "common"; "quorum" one in 15, "zephyr" one in 200; lengths vary. */
const PASSAGES = Array.from({ length: NODES }, (_, i) =>
  reference(
    `docs:manual.md#${i}`,
    `Common ground, section ${i}: ${i % 15 === 0 ? 'quorum ' : ''}${i % 200 === 0 ? 'zephyr ' : ''}${'filler '.repeat(i % 7)}end.`,
  ),
);
const FILTER = { projects: ['demo'], levels: ['R' as const] };
const TERMS = ['zephyr', 'quorum', 'common'];

let store: TestStore;
beforeAll(async () => {
  store = await testStore({ demo: PASSAGES });
});
afterAll(() => store.cleanup());

/** The store, counting every row its keyword reads return (a frequency is one row). */
function counting(items: ItemStore): { items: ItemStore; rows: () => number } {
  let rows = 0;
  const counted = new Proxy(items, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...a: unknown[]) => unknown).bind(target);
      if (key !== 'tokenPostings' && key !== 'tokenFrequency') return bound;
      return (...args: unknown[]) => {
        const out = bound(...args);
        rows += Array.isArray(out) ? out.length : 1;
        return out;
      };
    },
  });
  return { items: counted, rows: () => rows };
}

describe('recallKeyword: a term in every node', () => {
  it('reads a bounded number of rows, and answers as the exhaustive ranking does', () => {
    const bounded = counting(store.items);
    // zephyr (3 nodes) and quorum (40) fit a budget of 100 postings; common (600) does not.
    const answer = recallKeyword(bounded.items, TERMS, FILTER, 10, 'or', 100);
    const exhaustive = counting(store.items);
    const all = recallKeyword(exhaustive.items, TERMS, FILTER, 10, 'or', Number.MAX_SAFE_INTEGER);

    expect(all.leftOut).toEqual([]);
    expect(exhaustive.rows()).toBeGreaterThanOrEqual(NODES);
    expect(answer.leftOut).toEqual(['common']);
    // The cap: the searched postings (3 + 40), common's read up to one past the budget (101),
    // its count (1) and its postings on the 43 candidates — never one row per node.
    expect(bounded.rows()).toBeLessThanOrEqual(3 + 40 + 101 + 1 + 43);
    // Common still weighs in (left out of the search, not of the score): same hits, same floats.
    expect(answer.hits).toEqual(all.hits);
    expect(answer.hits.map((h) => h.score)).toEqual(all.hits.map((h) => h.score));
  });
});
