import { itemId } from '@mem/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseFind, sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';

/*
 * A scoped keyword find's exact total (item-reads.ts scopedTotal): the matches of its common
 * phrases (keyword-candidates.ts DECISION: floorScored 20 here, so that 60 items show it) are
 * counted once and kept on a read-only connection until the store changes; the other phrases
 * add their matches holding no common phrase. The total is every match, as before, and a
 * commit on another connection is seen by the next find.
 */
const FLOOR_SCORED = 20;
const P = 'cache';
/** 60 items holding "note" (common); every tenth from the fourth holds "zephyr"; item 23 expires, item 25 is deleted. */
const text = (i: number) => `note ${i}${i % 10 === 4 ? ' zephyr' : ''}`;
const payloads: Record<string, unknown>[] = [
  ...Array.from({ length: 60 }, (_, i) => ({
    type: 'item_added',
    item_type: 'fact',
    summary: text(i),
    ...(i === 23 ? { valid_until: '2026-01-01T00:00:00.000Z' } : {}),
  })),
  // Two items without the common word: "zephyr" and "14" each add one match past it.
  { type: 'item_added', item_type: 'fact', summary: 'zephyr alone' },
  { type: 'item_added', item_type: 'fact', summary: 'only 14 here' },
  { type: 'item_deleted', item: itemId(P, 25), reason: 'wrong' },
];
const base = baseFind(P, ['"zephyr"', '"note"']);

let root: ReturnType<typeof tempRoot>;
let path: string;
beforeAll(async () => {
  root = tempRoot();
  const { db } = await sealedStoreOf(root.target, P, payloads);
  path = db.name;
  db.close();
});
afterAll(() => root.cleanup());

/** Live items whose summary holds one of `words`, counted from the rows (the reference total, held-back ones included). */
function matchesOf(db: Database.Database, words: readonly string[]): number {
  const rows = db
    .prepare('SELECT summary FROM item WHERE deleted_at IS NULL')
    .pluck()
    .all() as string[];
  return rows.filter((summary) => summary.split(' ').some((w) => words.includes(w))).length;
}

/** A read-only connection whose item_fts counts are recorded (their MATCH). */
function countingReader() {
  const reader = new Database(path, { readonly: true });
  const counted: string[] = [];
  const prepareOf = reader.prepare.bind(reader);
  reader.prepare = ((sql: string) => {
    const statement = prepareOf(sql);
    if (!/FROM item_fts WHERE item_fts MATCH @scope$/.test(sql)) return statement;
    const get = statement.get.bind(statement);
    return Object.assign(statement, {
      get: (params: { scope: string }) => (counted.push(params.scope), get(params)),
    });
  }) as typeof reader.prepare;
  return { reader, counted };
}

describe('a scoped keyword find’s exact total', () => {
  it('counts the common phrases’ matches once while the store is unchanged, whatever the other phrases', () => {
    const { reader, counted } = countingReader();
    try {
      const items = itemReader(reader, { floorScored: FLOOR_SCORED });
      const matched = (phrases: string[]) => {
        const found = items.findItems({ ...base, phrases });
        return found.total + found.heldBackTotal;
      };
      expect(matched(['"zephyr"', '"note"'])).toBe(matchesOf(reader, ['zephyr', 'note']));
      expect(matched(['"14"', '"note"'])).toBe(matchesOf(reader, ['14', 'note']));
      expect(matched(['"note"'])).toBe(matchesOf(reader, ['note']));
      expect(matched(['"zephyr"', '"14"'])).toBe(matchesOf(reader, ['zephyr', '14']));
      // "note" alone was walked once; each other count walks the rarer phrases only.
      const walksOfNote = counted.filter((m) => m.includes('"note"') && !m.includes(' NOT '));
      expect(walksOfNote).toHaveLength(1);
      expect(counted).toHaveLength(4);
    } finally {
      reader.close();
    }
  });

  it('is never stale: a commit on another connection is counted by the next find', () => {
    const { reader, counted } = countingReader();
    const writer = new Database(path);
    try {
      const items = itemReader(reader, { floorScored: FLOOR_SCORED });
      const total = (phrases: string[]) => items.findItems({ ...base, phrases }).total;
      const note = total(['"note"']);
      const both = total(['"zephyr"', '"note"']);
      expect(total(['"note"'])).toBe(note);
      const walks = counted.length;
      // Rows item_fts counts (its scope tokens: the project, live, active, a fact, no status):
      // one holding the common word, one holding only the other.
      const scope = 'pcache0 l1 a1 t2 s0';
      const add = writer.prepare('INSERT INTO item_fts (rowid, text, scope) VALUES (?, ?, ?)');
      add.run(900_001, 'note added', scope);
      expect(total(['"note"'])).toBe(note + 1);
      expect(counted.length).toBe(walks + 1);
      add.run(900_002, 'zephyr added', scope);
      expect(total(['"zephyr"', '"note"'])).toBe(both + 2);
      expect(total(['"note"'])).toBe(note + 1);
    } finally {
      writer.close();
      reader.close();
    }
  });
});
