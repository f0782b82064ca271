import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsyncFile } from './durable-fs.js';
import { validateBatch } from './batch.js';
import { EventLog } from './event-log.js';
import { tempLogDir, tombstones } from '../test-fixtures/temp-log.js';

/*
 * Group commit: appends of one process that arrive while an fsync is in flight join the next
 * write + fsync instead of each paying their own, and none is acknowledged before its bytes are
 * durable. The real fsync runs; the hook only counts and holds the first one open.
 */
const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

describe('group commit', () => {
  it('appends arriving during an fsync share the next one, each acknowledged only after it, with contiguous seqs', async () => {
    const trace: string[] = [];
    let calls = 0;
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstStarted!: () => void;
    const firstInFlight = new Promise<void>((resolve) => (firstStarted = resolve));
    const log = new EventLog({
      dir: temp.dir,
      fsync: async (fd) => {
        calls += 1;
        const n = calls;
        trace.push(`fsync ${n} start`);
        await fsyncFile(fd);
        if (n === 1) {
          firstStarted();
          await firstHeld;
        }
        trace.push(`fsync ${n} done`);
      },
    });
    const ack = (name: string) => (result: { first_seq: number; last_seq: number }) => {
      trace.push(`ack ${name}`);
      return result;
    };
    const first = log.append('demo', tombstones(2, 'a'), writer).then(ack('a'));
    await firstInFlight;
    const later = ['b', 'c', 'd'].map((name) =>
      log.append('demo', tombstones(3, name), writer).then(ack(name)),
    );
    // Let the later writers reach the log while the first fsync is still held open.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(trace).toEqual(['fsync 1 start']);
    releaseFirst();
    const results = await Promise.all([first, ...later]);

    // Four appends, two fsyncs; nobody acknowledged before the fsync that made it durable.
    expect(calls).toBe(2);
    const at = (entry: string) => trace.indexOf(entry);
    expect(at('ack a')).toBeGreaterThan(at('fsync 1 done'));
    for (const name of ['b', 'c', 'd'])
      expect(at(`ack ${name}`)).toBeGreaterThan(at('fsync 2 done'));
    expect(at('fsync 2 start')).toBeGreaterThan(at('fsync 1 done'));
    expect(results.map((r) => [r.first_seq, r.last_seq])).toEqual([
      [1, 2],
      [3, 5],
      [6, 8],
      [9, 11],
    ]);
    const reasons: string[] = [];
    for await (const { event } of log.read('demo'))
      if (event.type === 'tombstone') reasons.push(event.reason);
    expect(reasons).toEqual(['a0', 'a1', 'b0', 'b1', 'b2', 'c0', 'c1', 'c2', 'd0', 'd1', 'd2']);
    expect(await log.verify('demo')).toMatchObject({ ok: true, events: 11 });
  });

  it('a failed shared fsync fails every batch of the group and leaves the log as it was', async () => {
    let calls = 0;
    const log = new EventLog({
      dir: temp.dir,
      fsync: async (fd) => {
        calls += 1;
        await fsyncFile(fd);
        if (calls === 2) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      },
    });
    await log.append('demo', tombstones(2, 'a'), writer);
    const outcomes = await Promise.allSettled(
      ['b', 'c'].map((name) => log.append('demo', tombstones(2, name), writer)),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    for (const outcome of outcomes)
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'IO_FAILED' });
    expect(await log.verify('demo')).toMatchObject({ ok: true, events: 2 });
    await expect(log.append('demo', tombstones(1, 'e'), writer)).resolves.toMatchObject({
      first_seq: 3,
    });
  });

  it('a batch queued after the ones it counted on fails unwritten when one of them fails; the others are written', async () => {
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const log = new EventLog({
      dir: temp.dir,
      fsync: async (fd) => {
        calls += 1;
        await fsyncFile(fd);
        if (calls !== 1) return;
        started();
        await held;
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      },
    });
    const first = log.queueValidated('demo', validateBatch(tombstones(2, 'a'), writer));
    await inFlight;
    const counting = log.queueValidated('demo', validateBatch(tombstones(1, 'b'), writer), [first]);
    const free = log.queueValidated('demo', validateBatch(tombstones(1, 'c'), writer));
    release();
    await expect(first.durable).rejects.toMatchObject({ code: 'IO_FAILED' });
    await expect(counting.durable).rejects.toMatchObject({
      code: 'IO_FAILED',
      details: { project: 'demo' },
    });
    await expect(free.durable).resolves.toMatchObject({ first_seq: 1, last_seq: 1 });
    expect([first.failed, counting.failed, free.failed]).toEqual([true, true, false]);
    const reasons: string[] = [];
    for await (const { event } of log.read('demo'))
      if (event.type === 'tombstone') reasons.push(event.reason);
    expect(reasons).toEqual(['c0']);
    expect(await log.verify('demo')).toMatchObject({ ok: true, events: 1 });
  });
});
