import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemStore } from '@mem/projector-sqlite';
import { evidence, linedMemory, run, sha, testStore, type TestStore } from '../test/store.js';
import { noteOf, notesOfPage } from './line-note.js';

/*
 * A line a memory kept through a long history: each step of its query wrote a new memory that
 * still holds it, so the line has a memory edge to every one of them, and all but the newest
 * are superseded. Its note is the newest; finding it must not read the history.
 */
const KEPT = 'The release script must run from the repository root, or the tag is wrong.';
// More memory edges than LINE_FIRST_MAX_EDGES: a page walks KEPT from the live memories and
// its short-lived lines from their own edges (line-note-sql.ts), and both must agree with noteOf.
const STEPS = 40;
const step = (i: number) => `Step ${i} of the release checklist was reviewed and signed off.`;

let store: TestStore;

beforeAll(async () => {
  store = await testStore({
    demo: [
      run('r-1', 'L1', 'release'),
      evidence('r-1', 1, KEPT),
      ...Array.from({ length: STEPS }, (_, i) => [
        evidence('r-1', i + 2, step(i)),
        linedMemory('r-1', 'L1', i + 2, [
          [KEPT, [KEPT]],
          [step(i), [step(i)]],
        ]),
      ]).flat(),
    ],
  });
});
afterAll(() => store.cleanup());

/** The store, counting the calls made of it by name. */
function counted(items: ItemStore): { items: ItemStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(items, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(name), (calls.get(String(name)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { items: proxy, calls };
}

describe('noteOf: a line’s live memory, whatever its history', () => {
  it('names the newest memory of the query, in one store call that reads no superseded memory', () => {
    const line = store.items.line('demo', 'L1', sha(KEPT))!;
    expect(
      store.items.lineEdges('demo', 'L1', sha(KEPT)).filter((e) => e.kind === 'memory'),
    ).toHaveLength(STEPS);
    const head = store.items.memoryHead('demo', 'release')!;
    const { items, calls } = counted(store.items);

    expect(noteOf(items, line)).toEqual({
      level: 'L1',
      sha256: head.sha256,
      query_id: 'release',
      path: 'demo/release.md',
    });
    expect(Object.fromEntries(calls)).toEqual({ lineNote: 1 });
  });

  it('is null for a line no live memory holds any more', async () => {
    const gone = store.items.line('demo', 'L1', sha(step(0)))!;
    expect(noteOf(store.items, gone)).toBeNull();
  });

  it('notesOfPage answers as noteOf for each row of a page, in one store call', () => {
    const rows = [
      store.items.line('demo', 'L1', sha(KEPT))!,
      store.items.line('demo', 'L1', sha(step(0)))!,
      store.items.memoryHead('demo', 'release')!,
      store.items.line('demo', 'L1', sha(KEPT))!,
      store.items.line('demo', 'L1', sha(step(STEPS - 1)))!,
    ];
    const { items, calls } = counted(store.items);
    const notes = notesOfPage(items, rows);
    expect(Object.fromEntries(calls)).toEqual({ lineNotes: 1 });
    expect(notes).toEqual(rows.map((row) => noteOf(store.items, row)));
    expect(notes[0]).not.toBeNull();
    expect(notes.slice(1, 3)).toEqual([null, null]);
    // The newest step's line, one edge to the live memory: walked from its own edge.
    expect(notes[4]).toEqual(notes[0]);
  });
});
