import { itemId } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';

const P = 'demo';
const HORIZON = '2026-03-15T00:00:00.000Z';
const reminder = (summary: string, remind_at: string, tags: string[] = []) => ({
  type: 'item_added',
  item_type: 'reminder',
  summary,
  remind_at,
  tags,
});

// Due, overdue, tied on the instant, resolved, deleted, past the horizon, and a task.
const payloads = [
  reminder('Rotate the key', '2026-03-10T00:00:00.000Z', ['ops']),
  reminder('Renew the cert', '2026-02-01T00:00:00.000Z'),
  reminder('Tied one', '2026-03-10T00:00:00.000Z'),
  reminder('Done already', '2026-03-02T00:00:00.000Z'),
  reminder('Deleted', '2026-03-03T00:00:00.000Z'),
  reminder('Next quarter', '2026-06-01T00:00:00.000Z'),
  { type: 'item_added', item_type: 'task', summary: 'Not a reminder' },
  { type: 'item_resolved', item: itemId(P, 4), from: 'open', status: 'done', reason: 'did it' },
  { type: 'item_deleted', item: itemId(P, 5), reason: 'wrong' },
];

describe("orient's due reminders", () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('are read from one index (a range in its order: no sub-query per reminder, no sort), in order, with an exact total', async () => {
    const { db, statements, unrecorded: prepare } = await sealedStoreOf(root.target, P, payloads);
    try {
      const reads = itemReader(db);
      const due = [...reads.dueReminders(P, HORIZON)].map((r) => [r.id, r.remind_at]);
      const tied = [itemId(P, 1), itemId(P, 3)].sort();
      expect(due).toEqual([
        [itemId(P, 2), '2026-02-01T00:00:00.000Z'],
        ...tied.map((id) => [id, '2026-03-10T00:00:00.000Z']),
      ]);
      expect(reads.dueReminderCount([P], HORIZON)).toBe(3);
      expect(statements.length).toBeGreaterThan(0);
      for (const sql of statements) {
        const plan = (
          prepare(`EXPLAIN QUERY PLAN ${sql}`).all(emptyParams(sql)) as {
            detail: string;
          }[]
        ).map((r) => r.detail);
        expect(plan.join('\n')).not.toMatch(/CORRELATED|SCAN i\b|SCAN item\b/);
        if (/item_due_reminder/.test(sql))
          expect(plan.join('\n')).toContain('COVERING INDEX item_due_reminder');
        // Rows in the index's order: a sort would read every due reminder before the first.
        if (/ORDER BY/.test(sql)) expect(plan.join('\n')).not.toContain('TEMP B-TREE');
      }
      expect(statements.join('\n')).toContain('item_due_reminder');
    } finally {
      db.close();
    }
  });

  it('carry their summaries from that index: a reminder costs no item row', async () => {
    const { db, statements } = await sealedStoreOf(root.target, P, payloads);
    try {
      const due = [...itemReader(db).dueReminders(P, HORIZON)];
      expect(due.map((r) => [r.id, r.summary])).toEqual([
        [itemId(P, 2), 'Renew the cert'],
        ...[
          [itemId(P, 1), 'Rotate the key'],
          [itemId(P, 3), 'Tied one'],
        ].sort(),
      ]);
      // One statement, over item_due_reminder alone (a summary looked up per reminder before).
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain('INDEXED BY item_due_reminder');
    } finally {
      db.close();
    }
  });
});

/** Each named parameter of `sql` bound to null: a plan needs them bound, not meaningful. */
function emptyParams(sql: string): Record<string, null> {
  return Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null]));
}
