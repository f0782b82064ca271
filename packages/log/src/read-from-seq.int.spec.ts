import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { hasErrorCode, isMemError, sha256Hex } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempLogDir, tombstones } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';
import type { LoggedEvent, ReadOptions } from './types.js';

// Issue 15, target 1: a catch-up reads the few events after its position, and that read must
// not cost the whole segment they sit at the end of (64 MiB by default).

const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

interface Counted {
  events: LoggedEvent[];
  /** Bytes every FileHandle.read of the walk returned. */
  bytes: number;
}

/** Reads through `log.read`, counting the bytes read from files (FileHandle is all the walk reads with). */
async function countedRead(log: EventLog, options: ReadOptions): Promise<Counted> {
  const probe = await open(join(temp.root, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => unknown };
  await probe.close();
  const original = prototype.read;
  let bytes = 0;
  prototype.read = async function (this: unknown, ...args: unknown[]) {
    const result = (await original.apply(this, args)) as { bytesRead: number };
    bytes += result.bytesRead;
    return result;
  };
  try {
    const events: LoggedEvent[] = [];
    for await (const logged of log.read('demo', options)) events.push(logged);
    return { events, bytes };
  } finally {
    prototype.read = original;
  }
}

async function readAll(log: EventLog, options: ReadOptions = {}): Promise<LoggedEvent[]> {
  return (await countedRead(log, options)).events;
}

async function failure(log: EventLog, options: ReadOptions): Promise<unknown> {
  return readAll(log, options).then(
    () => {
      throw new Error('expected the read to fail');
    },
    (error: unknown) => error,
  );
}

/** `count` events in batches of 1,000 (one segment unless `segmentBytes` says otherwise). */
async function seeded(count: number, segmentBytes?: number): Promise<EventLog> {
  const log = new EventLog({ dir: temp.dir, ...(segmentBytes ? { segmentBytes } : {}) });
  for (let done = 0; done < count; done += 1000)
    await log.append('demo', tombstones(Math.min(1000, count - done), `r${done}-`), writer);
  return log;
}

const SEGMENT = () => join(temp.dir, 'demo', '000001.jsonl');

describe('reading from a seq', () => {
  it('reads the last events of a large segment without reading the segment', async () => {
    const log = await seeded(20_000);
    const size = readFileSync(SEGMENT()).length;
    expect(size).toBeGreaterThan(4_000_000);
    const all = await readAll(log);
    const tail = await countedRead(log, { fromSeq: 19_996 });
    expect(tail.events).toEqual(all.slice(19_995));
    // The search reads a few KB per probe, then at most 64 KiB plus a line before the events.
    expect(tail.bytes).toBeLessThan(200_000);
    const middle = await countedRead(log, { fromSeq: 10_001, prev: all[9_999]!.hash });
    expect(middle.events).toEqual(all.slice(10_000));
    expect(middle.bytes).toBeLessThan(size / 2 + 200_000);
  });

  it('yields what a full read yields from every seq: events, hashes, segments and lines', async () => {
    const log = await seeded(6_000, 600_000);
    const all = await readAll(log);
    expect(new Set(all.map(({ segment }) => segment)).size).toBeGreaterThan(2);
    const firsts = all.filter(({ line }) => line === 1).map(({ event }) => event.seq);
    const seqs = [1, 2, 3, 4, 1_000, 2_999, 5_999, 6_000, 6_001, 9_000];
    for (const first of firsts) seqs.push(first - 1, first, first + 1, first + 2);
    for (const fromSeq of seqs) {
      expect(await readAll(log, { fromSeq })).toEqual(all.slice(Math.max(0, fromSeq - 1)));
    }
    const prev = all[4_321]!.hash;
    expect((await readAll(log, { fromSeq: 4_323, prev }))[0]!.event.seq).toBe(4_323);
    const refused = await failure(log, { fromSeq: 4_323, prev: 'e'.repeat(64) });
    expect(hasErrorCode(refused, 'CHAIN_BROKEN')).toBe(true);
  });

  it('still chains the first event read to the line before it', async () => {
    const log = await seeded(20_000);
    const lines = readFileSync(SEGMENT(), 'utf8').split('\n');
    // An edited line just before the read: the next line's prev no longer matches its hash.
    lines[18_999] = lines[18_999]!.replace('"reason":"r18000-999"', '"reason":"r18000-99X"');
    writeFileSync(SEGMENT(), lines.join('\n'));
    const error = await failure(log, { fromSeq: 19_001 });
    expect(hasErrorCode(error, 'CHAIN_BROKEN')).toBe(true);
    expect((error as { details: { line: number } }).details.line).toBe(19_001);
  });

  it('names the real line of a bad line after the seek, and an earlier one it passed over', async () => {
    const log = await seeded(20_000);
    const lines = readFileSync(SEGMENT(), 'utf8').split('\n');
    lines[19_994] = 'garbage';
    writeFileSync(SEGMENT(), lines.join('\n'));
    const late = await failure(log, { fromSeq: 19_990 });
    expect(hasErrorCode(late, 'LOG_CORRUPT')).toBe(true);
    expect(isMemError(late) && late.details).toMatchObject({ line: 19_995 });
    // A line removed early in the segment: the skip never read it, so the counted line numbers
    // after it would be one off; the error path walks the segment from its start and names it.
    lines.splice(99, 1);
    writeFileSync(SEGMENT(), lines.join('\n'));
    const early = await failure(log, { fromSeq: 19_990 });
    expect(hasErrorCode(early, 'CHAIN_BROKEN')).toBe(true);
    expect(isMemError(early) && early.details).toMatchObject({ line: 100 });
    expect(isMemError(early) && early.message).toContain('seq 101 where seq 100 was expected');
  });

  it('names the fragment that ends an older segment at its line, after a seek into that segment', async () => {
    const log = await seeded(6_000, 600_000);
    const all = await readAll(log);
    const second = all.filter(({ segment }) => segment === '000002.jsonl');
    const file = join(temp.dir, 'demo', '000002.jsonl');
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(200_000);
    writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    const error = await failure(log, { fromSeq: second.at(-3)!.event.seq });
    expect(hasErrorCode(error, 'LOG_CORRUPT')).toBe(true);
    expect(isMemError(error) && error.details).toMatchObject({
      segment: '000002.jsonl',
      line: second.length,
    });
  });

  it('does not read damage before the seq it starts from, as it never read earlier segments', async () => {
    const log = await seeded(20_000);
    const lines = readFileSync(SEGMENT(), 'utf8').split('\n');
    const all = await readAll(log);
    lines[99] = 'garbage';
    writeFileSync(SEGMENT(), lines.join('\n'));
    expect(await readAll(log, { fromSeq: 19_990 })).toEqual(all.slice(19_989));
    expect(hasErrorCode(await failure(log, {}), 'LOG_CORRUPT')).toBe(true);
    expect((await log.verify('demo')).break).toMatchObject({ line: 100, code: 'LOG_CORRUPT' });
  });

  it('reads up to a torn tail', async () => {
    const log = await seeded(20_000);
    const all = await readAll(log);
    appendFileSync(SEGMENT(), '{"seq":20001,"ts":"2026-');
    expect(await readAll(log, { fromSeq: 19_999 })).toEqual(all.slice(19_998));
    expect(await readAll(log, { fromSeq: 20_001 })).toEqual([]);
  });

  it('falls back to reading on where lines do not start with their seq (a valid chain all the same)', async () => {
    const log = await seeded(20_000);
    // Lines 10,001–20,000 re-keyed with ts first, and the chain re-linked after them: still a
    // valid log (key order is not validated on read), but the search cannot read their seqs.
    const lines = readFileSync(SEGMENT(), 'utf8').split('\n').slice(0, -1);
    let prev = '';
    const relinked = lines.map((line, index) => {
      if (index < 10_000) return line;
      const { ts, ...rest } = JSON.parse(line) as { ts: string; prev: string };
      const out = JSON.stringify(index === 10_000 ? { ts, ...rest } : { ts, ...rest, prev });
      prev = sha256Hex(out);
      return out;
    });
    writeFileSync(SEGMENT(), `${relinked.join('\n')}\n`);
    expect((await log.verify('demo')).ok).toBe(true);
    const all = await readAll(log);
    const tail = await countedRead(log, { fromSeq: 19_996 });
    expect(tail.events).toEqual(all.slice(19_995));
    // The search stops at the last line it could read a seq from (seq 10,000), half the file.
    expect(tail.bytes).toBeLessThan(readFileSync(SEGMENT()).length * 0.6);
    expect(await readAll(log, { fromSeq: 9_000 })).toEqual(all.slice(8_999));
  });
});
