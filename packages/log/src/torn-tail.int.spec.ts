import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasErrorCode, sha256Hex } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempLogDir, tombstone, tombstones } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';

const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

async function seqs(log: EventLog, project: string): Promise<number[]> {
  const out: number[] = [];
  for await (const { event } of log.read(project)) out.push(event.seq);
  return out;
}

describe('a torn last line', () => {
  it('is skipped by readers, then truncated by the next writer, which records a recovery event first', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(3), writer);
    const file = join(temp.dir, 'demo', '000001.jsonl');
    const intact = readFileSync(file);
    const torn = '{"seq":4,"ts":"2026-08-17T09:00:00.000Z","project":"demo","type":"tomb';
    appendFileSync(file, torn);

    expect(await seqs(log, 'demo')).toEqual([1, 2, 3]);
    expect(await log.head('demo')).toMatchObject({ seq: 3 });
    const verified = await log.verify('demo');
    expect(verified).toMatchObject({
      ok: true,
      events: 3,
      torn_tail: { segment: '000001.jsonl', bytes: torn.length },
    });

    // A fresh instance: no cached tail, it must find the tear on disk.
    const result = await new EventLog({ dir: temp.dir }).append(
      'demo',
      [tombstone('after')],
      writer,
    );
    expect(result).toMatchObject({ appended: 1, first_seq: 5, last_seq: 5 });
    expect(result.events[0]).toMatchObject({
      seq: 4,
      type: 'recovery',
      writer: { kind: 'log' },
      segment: '000001.jsonl',
      v: 2,
      truncated_at: intact.length,
      dropped_bytes: torn.length,
      dropped_sha256: sha256Hex(torn),
    });
    const after = readFileSync(file);
    expect(after.subarray(0, intact.length)).toEqual(intact);
    expect(after.includes(Buffer.from('"tomb\n'))).toBe(false);
    expect(await seqs(log, 'demo')).toEqual([1, 2, 3, 4, 5]);
    expect(await log.verify('demo')).toMatchObject({ ok: true, events: 5 });
    expect((await log.verify('demo')).torn_tail).toBeUndefined();
  });

  it('is repaired even when the writer had the old end cached', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(2), writer);
    appendFileSync(join(temp.dir, 'demo', '000001.jsonl'), '{"seq":3,');
    const result = await log.append('demo', [tombstone('next')], writer);
    expect(result.events.map((e) => e.type)).toEqual(['recovery', 'tombstone']);
    expect((await log.verify('demo')).ok).toBe(true);
  });

  it('can be a whole segment: the segment is emptied and the chain continues from the one before', async () => {
    const log = new EventLog({ dir: temp.dir, segmentBytes: 600 });
    for (let n = 0; n < 4; n += 1) await log.append('demo', [tombstone(`r${n}`)], writer);
    const second = join(temp.dir, 'demo', '000002.jsonl');
    writeFileSync(second, readFileSync(second, 'utf8').split('\n')[0]!.slice(0, 50), { flag: 'w' });
    const before = await seqs(log, 'demo');
    const result = await new EventLog({ dir: temp.dir, segmentBytes: 600 }).append(
      'demo',
      [tombstone('again')],
      writer,
    );
    expect(result.events[0]).toMatchObject({
      type: 'recovery',
      segment: '000002.jsonl',
      truncated_at: 0,
      dropped_bytes: 50,
      seq: before.length + 1,
    });
    expect(await seqs(log, 'demo')).toEqual([...before, before.length + 1, before.length + 2]);
    expect((await log.verify('demo')).ok).toBe(true);
  });

  it('in a segment that is not the newest is corruption, not a tear', async () => {
    const log = new EventLog({ dir: temp.dir, segmentBytes: 600 });
    for (let n = 0; n < 4; n += 1) await log.append('demo', [tombstone(`r${n}`)], writer);
    const first = join(temp.dir, 'demo', '000001.jsonl');
    const size = readFileSync(first).length;
    truncateSync(first, size - 1);
    const verified = await log.verify('demo');
    expect(verified).toMatchObject({
      ok: false,
      break: { code: 'LOG_CORRUPT', segment: '000001.jsonl' },
    });
    await expect(seqs(log, 'demo')).rejects.toSatisfy((error) =>
      hasErrorCode(error, 'LOG_CORRUPT'),
    );
  });
});
