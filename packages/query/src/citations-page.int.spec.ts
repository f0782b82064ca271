import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemStore, NodeRow } from '@mem/projector-sqlite';
import {
  evidence,
  linedMemory,
  memory,
  run,
  tombstone,
  testStore,
  type TestStore,
} from '../test/store.js';
import { citationsOf, citationsOfPage, type CitationMode } from './citations.js';

/*
 * citationsOfPage reads the chunks of a page's L1 lines in one statement; it must answer as
 * citationsOf does row by row: every level and kind, a tombstoned chunk, an excerpt cut.
 */
const LONG = `The deploy log, at length: ${'image pull backoff; '.repeat(40)}`;
const SHORT = 'kubectl rollout undo brought the old pods back.';
const GONE = 'The token printed in this chunk was removed on request.';
const ALSO = 'A second rollout worked once the tag was pushed.';

let store: TestStore;
beforeAll(async () => {
  store = await testStore({
    demo: [
      run('r1', 'L1', 'deploys'),
      evidence('r1', 1, LONG),
      evidence('r1', 2, SHORT),
      evidence('r1', 3, GONE),
      evidence('r1', 4, ALSO),
      linedMemory('r1', 'L1', 4, [
        ['rollouts fail on a missing image tag', [LONG, SHORT]],
        ['the rollout token leaked once', [GONE, ALSO]],
      ]),
      run('r2', 'L2', null),
      memory('r2', 'L2', 5, '- rollouts fail on a missing image tag', [
        '- rollouts fail on a missing image tag\n- the rollout token leaked once',
      ]),
      tombstone(GONE),
    ],
  });
}, 120_000);
afterAll(() => store.cleanup());

/** Every node of the project: lines of both levels, memories, chunks. */
const everything = (items: ItemStore): NodeRow[] => [
  ...items.nodes({ project: 'demo', kind: 'line', includeDeleted: true }),
  ...items.nodes({ project: 'demo', includeDeleted: true }),
];

describe('citationsOfPage', () => {
  it.each<CitationMode>(['full', 'excerpt', 'none'])(
    'answers as citationsOf row by row (%s)',
    (mode) => {
      const rows = everything(store.items);
      expect(rows.filter((r) => r.kind === 'line' && r.level === 'L1')).toHaveLength(2);
      const expected = rows.map((row) => citationsOf(store.items, row, mode));
      if (mode !== 'none') expect(expected.some((c) => c.length > 0)).toBe(true);
      expect(citationsOfPage(store.items, rows, mode)).toEqual(expected);
      const cited = expected.flat();
      expect(cited.some((c) => c.text === GONE)).toBe(false); // the tombstoned chunk
      expect(cited.some((c) => c.text_chars !== undefined)).toBe(mode === 'excerpt');
    },
  );
});
