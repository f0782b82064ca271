import { itemId } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';

const P = 'demo';
const thread = (summary: string) => ({ type: 'item_added', item_type: 'thread', summary });
// Four threads; work under the first makes it the most recent; one resolved, one archived.
const payloads = [
  thread('Port the loader'),
  thread('Fix the cache'),
  thread('Ship the docs'),
  thread('Filed away'),
  thread('Done already'),
  { type: 'item_added', item_type: 'task', summary: 'Under the loader', parent: itemId(P, 1) },
  { type: 'item_attention_set', item: itemId(P, 4), attention: 'archive', reason: 'old' },
  { type: 'item_resolved', item: itemId(P, 5), from: 'open', status: 'done', reason: 'did it' },
];

describe("orient's open threads", () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('are read newest activity first from one index range, only as far as the reader goes, and counted from the index', async () => {
    const { db, statements, unrecorded: prepare } = await sealedStoreOf(root.target, P, payloads);
    try {
      const reads = itemReader(db);
      expect(reads.openThreadCount([P])).toBe(3);
      const rows = reads.openThreadsByActivity(P);
      const first = rows.next().value!;
      expect([first.id, first.activity_seq, first.open_count]).toEqual([itemId(P, 1), 6, 1]);
      rows.return(undefined);
      expect([...reads.openThreadsByActivity(P)].map((r) => r.id)).toEqual([
        itemId(P, 1),
        itemId(P, 3),
        itemId(P, 2),
      ]);
      const reading = statements.filter((sql) => sql.includes('item_open_thread'));
      expect(reading.length).toBe(2);
      for (const sql of reading) {
        const plan = (
          prepare(`EXPLAIN QUERY PLAN ${sql}`).all(emptyParams(sql)) as { detail: string }[]
        )
          .map((r) => r.detail)
          .join('\n');
        // A sort would read every open thread before the first is returned.
        expect(plan).not.toMatch(/TEMP B-TREE|SCAN i\b/);
        expect(plan).toContain('COVERING INDEX item_open_thread');
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
