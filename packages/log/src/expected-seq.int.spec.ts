import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsyncFile } from './durable-fs.js';
import { validateBatch } from './batch.js';
import { EventLog } from './event-log.js';
import { tempLogDir, tombstones } from '../test-fixtures/temp-log.js';

/*
 * A batch built for the seq its first event gets (ids derived from its own seqs): decided under
 * the lock, so a writer that appended first makes it fail unwritten with CONFLICT, alone in its
 * group, and a batch that counted on it fails with it.
 */
const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

const bytes = () =>
  readdirSync(join(temp.dir, 'demo'))
    .sort()
    .map((f) => readFileSync(join(temp.dir, 'demo', f), 'utf8'))
    .join('');

describe('an expected first seq', () => {
  it('is written when it holds, refused unwritten (CONFLICT) when another batch got there first', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(2, 'a'), writer);
    const held = await log.queueValidated('demo', validateBatch(tombstones(1, 'b'), writer), [], 3)
      .durable;
    expect(held).toMatchObject({ first_seq: 3, last_seq: 3 });

    const before = bytes();
    await expect(
      log.queueValidated('demo', validateBatch(tombstones(2, 'c'), writer), [], 3).durable,
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { expected_first_seq: 3, first_seq: 4 },
    });
    expect(bytes()).toBe(before);
    expect((await log.head('demo')).seq).toBe(3);
  });

  it('in one group: the refused batch alone fails, the others keep their seqs, one counting on it fails too', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    let calls = 0;
    const log = new EventLog({
      dir: temp.dir,
      fsync: async (fd) => {
        calls += 1;
        await fsyncFile(fd);
        if (calls === 1) {
          started();
          await held;
        }
      },
    });
    const first = log.append('demo', tombstones(1, 'a'), writer);
    await inFlight;
    // Queued while the first fsync is held: one group. The expectation (seq 2) was built before
    // `b` was queued ahead of it, so it no longer holds.
    const b = log.queueValidated('demo', validateBatch(tombstones(1, 'b'), writer));
    const stale = log.queueValidated('demo', validateBatch(tombstones(1, 'c'), writer), [], 2);
    const dependent = log.queueValidated('demo', validateBatch(tombstones(1, 'd'), writer), [
      stale,
    ]);
    const fine = log.queueValidated('demo', validateBatch(tombstones(1, 'e'), writer), [], 3);
    release();
    await first;
    expect(await b.durable).toMatchObject({ first_seq: 2 });
    await expect(stale.durable).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(dependent.durable).rejects.toMatchObject({ code: 'IO_FAILED' });
    expect(await fine.durable).toMatchObject({ first_seq: 3, last_seq: 3 });
    expect(stale.failed).toBe(true);
    expect((await log.head('demo')).seq).toBe(3);
  });
});
