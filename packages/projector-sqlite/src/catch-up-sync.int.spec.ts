import { statSync } from 'node:fs';
import { contentSha256, memoryLines, type EventOf } from '@mem/core';
import { projectStretch } from '@mem/engine';
import { describe, expect, it } from 'vitest';
import { chainEvents, fixturePayloads, projected, tempRoot } from '../test/support.js';
import { projectorSqlite } from './projector.js';
import { itemStorePath } from './store-files.js';

const A = 'alpha';

/*
 * A catch-up of a built store commits in place; only one that may have dropped a text ends in
 * a TRUNCATE checkpoint (two fsyncs, and the -wal emptied: seal.ts). A new memory and a
 * tombstone only add rows and move marks, so their catch-ups leave the -wal as it is.
 */
describe('the seal of a catch-up syncs only for a dropped text', () => {
  it('a memory and a tombstone leave the -wal untruncated; a forget empties it', async () => {
    const log = chainEvents(A, fixturePayloads());
    const lastMemory = log.findLastIndex(({ event }) => event.type === 'memory');
    const line = memoryLines(log[lastMemory]!.event as EventOf<'memory'>)[0]!.text;
    const tail = chainEvents(
      A,
      [
        { type: 'tombstone', target: 'a'.repeat(64), reason: 'a stale build note' },
        {
          type: 'forgotten',
          target: contentSha256(line),
          target_kind: 'line',
          before_sha256: contentSha256(line),
          refuses: [{ sha256: contentSha256(line), terms: [] }],
          reason: 'wrong',
        },
      ],
      { startSeq: log.length + 1, prev: log.at(-1)!.hash },
    );
    const root = tempRoot();
    try {
      const wal = `${itemStorePath(root.target.stateDir)}-wal`;
      let handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(0, lastMemory)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      handle = await projectorSqlite.init(root.target);
      const steps: [string, typeof log][] = [
        ['memory', log.slice(lastMemory)],
        ['tombstone', tail.slice(0, 1)],
      ];
      for (const [what, events] of steps) {
        await projectStretch(projectorSqlite, handle, A, projected(events));
        await projectorSqlite.seal(handle);
        expect(statSync(wal).size, what).toBeGreaterThan(0);
      }
      await projectStretch(projectorSqlite, handle, A, projected(tail.slice(1)));
      await projectorSqlite.seal(handle);
      expect(statSync(wal).size).toBe(0);
      await projectorSqlite.close(handle);
    } finally {
      root.cleanup();
    }
  });
});
