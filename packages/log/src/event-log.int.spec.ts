import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasErrorCode, genesisHash, type LogEvent } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { steppingClock, tempLogDir, tombstone, tombstones } from '../test-fixtures/temp-log.js';
import { validateBatch, type ValidBatch } from './batch.js';
import { EventLog } from './event-log.js';
import type { LoggedEvent } from './types.js';

const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

async function readAll(log: EventLog, project: string, fromSeq?: number): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for await (const logged of log.read(project, fromSeq === undefined ? {} : { fromSeq }))
    out.push(logged);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('EventLog basics', () => {
  it('reads a project without a directory as empty', async () => {
    const log = new EventLog({ dir: temp.dir });
    expect(await log.projects()).toEqual([]);
    expect(await log.head('ghost')).toEqual({ seq: 0, hash: genesisHash('ghost') });
    expect(await readAll(log, 'ghost')).toEqual([]);
    expect(await log.verify('ghost')).toMatchObject({ ok: true, events: 0, segments: 0 });
  });

  it('writes exactly the bytes test/support chainEvents builds', async () => {
    const payloads = tombstones(5);
    const log = new EventLog({ dir: temp.dir, now: steppingClock() });
    for (const payload of payloads) await log.append('demo', [payload], writer);
    const expected = chainEvents('demo', payloads, { writer });
    expect(readFileSync(join(temp.dir, 'demo', '000001.jsonl'), 'utf8')).toBe(
      expected.map((e) => `${e.line}\n`).join(''),
    );
    expect(await log.head('demo')).toEqual({ seq: 5, hash: expected.at(-1)!.hash });
    const read = await readAll(log, 'demo');
    expect(read.map((r) => r.hash)).toEqual(expected.map((e) => e.hash));
    expect(read.map((r) => r.event)).toEqual(expected.map((e) => e.event));
    expect(read.map((r) => [r.segment, r.line])).toEqual(
      payloads.map((_, n) => ['000001.jsonl', n + 1]),
    );
  });

  it('acknowledges a batch with contiguous seqs and lists projects sorted', async () => {
    const log = new EventLog({ dir: temp.dir });
    const result = await log.append('beta', tombstones(3), writer);
    expect(result).toMatchObject({ project: 'beta', appended: 3, first_seq: 1, last_seq: 3 });
    expect(result.events.map((e: LogEvent) => e.seq)).toEqual([1, 2, 3]);
    expect((await log.append('beta', tombstones(2), writer)).first_seq).toBe(4);
    await log.append('alpha', tombstones(1), writer);
    await log.append('_system', tombstones(1), writer);
    writeFileSync(join(temp.dir, 'README.md'), 'not a project');
    expect(await log.projects()).toEqual(['_system', 'alpha', 'beta']);
  });

  it('sees appends made through another instance (the cached tail is re-checked)', async () => {
    const one = new EventLog({ dir: temp.dir });
    const two = new EventLog({ dir: temp.dir });
    await one.append('demo', tombstones(2), writer);
    await two.append('demo', tombstones(2), writer);
    expect((await one.append('demo', tombstones(1), writer)).first_seq).toBe(5);
    expect((await one.verify('demo')).ok).toBe(true);
  });

  it('refuses a bad batch before touching the file', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(2), writer);
    const file = join(temp.dir, 'demo', '000001.jsonl');
    const before = readFileSync(file);
    const bad = await rejection(
      log.append(
        'demo',
        [tombstone('ok'), { type: 'tombstone', target: 'short', reason: 'x' }, tombstone('ok')],
        writer,
      ),
    );
    expect(hasErrorCode(bad, 'INVALID_EVENT')).toBe(true);
    expect((bad as { details: { line: number } }).details.line).toBe(2);
    expect(hasErrorCode(await rejection(log.append('demo', [], writer)), 'INVALID_INPUT')).toBe(
      true,
    );
    expect(
      hasErrorCode(
        await rejection(log.append('demo', tombstones(1), { kind: '' })),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(await rejection(log.append('../etc', tombstones(1), writer)), 'INVALID_PROJECT'),
    ).toBe(true);
    expect(readFileSync(file)).toEqual(before);
    expect(readdirSync(temp.dir)).toEqual(['demo']);
  });

  it('appends a validated batch as the same bytes as raw payloads, and refuses a look-alike', async () => {
    const raw = new EventLog({ dir: join(temp.dir, 'raw'), now: steppingClock() });
    const checked = new EventLog({ dir: join(temp.dir, 'checked'), now: steppingClock() });
    await raw.append('demo', tombstones(3), writer);
    const result = await checked.appendValidated('demo', validateBatch(tombstones(3), writer));
    expect(result).toMatchObject({ appended: 3, first_seq: 1, last_seq: 3 });
    const file = (dir: string) => readFileSync(join(temp.dir, dir, 'demo', '000001.jsonl'));
    expect(file('checked')).toEqual(file('raw'));
    const forged = { payloads: [{ type: 'tombstone', target: 'short', reason: 'x' }], writer };
    const error = await rejection(checked.appendValidated('demo', forged as unknown as ValidBatch));
    expect(hasErrorCode(error, 'INVALID_INPUT')).toBe(true);
    expect(file('checked')).toEqual(file('raw'));
  });

  it('refuses a read whose expected head is not the log’s', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(5), writer);
    const all = await readAll(log, 'demo');
    const good = [];
    for await (const logged of log.read('demo', { fromSeq: 4, prev: all[2]!.hash }))
      good.push(logged.event.seq);
    expect(good).toEqual([4, 5]);
    const iterate = async () => {
      for await (const _ of log.read('demo', { fromSeq: 4, prev: 'e'.repeat(64) })) void _;
    };
    expect(hasErrorCode(await rejection(iterate()), 'CHAIN_BROKEN')).toBe(true);
  });
});

describe('rotation', () => {
  it('starts a new segment when a batch would overflow, never splitting a batch', async () => {
    const log = new EventLog({ dir: temp.dir, segmentBytes: 1500 });
    const batches: number[][] = [];
    for (let n = 0; n < 20; n += 1) {
      const result = await log.append('demo', tombstones(1 + (n % 4), `b${n}-`), writer);
      batches.push(result.events.map((e) => e.seq));
    }
    const segments = readdirSync(join(temp.dir, 'demo')).sort();
    expect(segments.length).toBeGreaterThan(3);
    expect(segments).toEqual(segments.map((_, n) => `${String(n + 1).padStart(6, '0')}.jsonl`));
    const read = await readAll(log, 'demo');
    expect(read.map((r) => r.event.seq)).toEqual(read.map((_, n) => n + 1));
    const segmentOf = new Map(read.map((r) => [r.event.seq, r.segment]));
    for (const seqs of batches) expect(new Set(seqs.map((seq) => segmentOf.get(seq))).size).toBe(1);
    for (const segment of segments) {
      const bytes = readFileSync(join(temp.dir, 'demo', segment)).length;
      const lines = read.filter((r) => r.segment === segment).length;
      // Over the threshold only when a single batch alone is bigger than it.
      if (bytes > 1500) expect(lines).toBeLessThanOrEqual(4);
    }
    expect((await log.verify('demo')).segments).toBe(segments.length);
  });

  it('reads fromSeq across segments without parsing the skipped ones', async () => {
    const log = new EventLog({ dir: temp.dir, segmentBytes: 1000 });
    for (let n = 0; n < 30; n += 1) await log.append('demo', [tombstone(`r${n}`)], writer);
    const all = await readAll(log, 'demo');
    expect(new Set(all.map((r) => r.segment)).size).toBeGreaterThan(4);
    for (const fromSeq of [1, 2, 7, 13, 29, 30, 31, 100]) {
      const from = await readAll(log, 'demo', fromSeq);
      expect(from.map((r) => r.event.seq)).toEqual(
        all.filter((r) => r.event.seq >= fromSeq).map((r) => r.event.seq),
      );
      expect(from).toEqual(all.slice(fromSeq - 1));
    }
    // Damage the middle of the first segment: a full read fails, a read from a later segment never looks there.
    const first = join(temp.dir, 'demo', '000001.jsonl');
    const lines = readFileSync(first, 'utf8').split('\n');
    lines[1] = 'garbage';
    writeFileSync(first, lines.join('\n'));
    const later = all.find((r) => r.segment === '000003.jsonl')!.event.seq;
    expect((await readAll(log, 'demo', later)).length).toBe(30 - later + 1);
    const full = rejection(readAll(log, 'demo'));
    expect(hasErrorCode(await full, 'LOG_CORRUPT')).toBe(true);
  });
});

describe('large logs', () => {
  it('streams many thousands of lines, including lines of hundreds of KB', async () => {
    const log = new EventLog({ dir: temp.dir, segmentBytes: 4 * 1024 * 1024 });
    for (let batch = 0; batch < 20; batch += 1)
      await log.append('big', tombstones(1000, `b${batch}-`), writer);
    const huge = 'h'.repeat(300 * 1024);
    await log.append('big', [tombstone(`huge ${huge}`), tombstone('after')], writer);
    expect(await log.head('big')).toMatchObject({ seq: 20_002 });
    let count = 0;
    let hugeSeen = false;
    for await (const { event } of log.read('big')) {
      count += 1;
      if (event.type === 'tombstone' && event.reason.startsWith('huge '))
        hugeSeen = event.reason.length === huge.length + 5;
    }
    expect(count).toBe(20_002);
    expect(hugeSeen).toBe(true);
    // A huge line last: the tail is found by reading backwards block by block.
    await log.append('big', [tombstone(`huge ${huge}`)], writer);
    expect(
      (await new EventLog({ dir: temp.dir }).append('big', [tombstone('x')], writer)).first_seq,
    ).toBe(20_004);
  });
});
