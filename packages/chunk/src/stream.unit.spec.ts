import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Chunk } from './chunk.js';
import { packRecords } from './packer.js';
import { chunkPolicy } from './policy.js';
import type { SourceRecord } from './record.js';
import { chunks } from './stream.js';
import { charTokenizer } from './testing/char-tokenizer.js';
import { record, recordStream, streamOf } from './testing/records.js';

// The global setTimeout, which the timer tests fake (as they fake the idle timer in stream.ts).
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `consume` on fake timers, advancing the clock until every timer has fired. */
async function onFakeTimers<T>(consume: () => Promise<T>): Promise<T> {
  vi.useFakeTimers();
  const done = consume();
  await vi.runAllTimersAsync();
  return done;
}
afterEach(() => vi.useRealTimers());

async function collect(source: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const c of source) out.push(c);
  return out;
}

/** Yields `a` and `b` at once, then goes quiet for `gapMs`, then yields `c`; logs when. */
async function* slowTail(gapMs: number, log: string[]): AsyncGenerator<SourceRecord> {
  log.push('yield a');
  yield record('user', 'a');
  log.push('yield b');
  yield record('assistant', 'b');
  await sleep(gapMs);
  log.push('yield c');
  yield record('user', 'c');
}

describe('chunks', () => {
  it('equals packRecords on a batch source (a batch is a finite stream)', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordStream,
        fc.integer({ min: 32, max: 300 }),
        async (records, maxTokens) => {
          const policy = chunkPolicy({ maxTokens });
          expect(await collect(chunks(streamOf(records), policy, charTokenizer))).toEqual(
            packRecords(records, policy, charTokenizer),
          );
        },
      ),
      { numRuns: 50 },
    );
  });

  it('with flush "tokens", holds a partial chunk until the end of the stream', async () => {
    const log: string[] = [];
    await onFakeTimers(async () => {
      for await (const c of chunks(
        slowTail(150, log),
        chunkPolicy({ maxTokens: 1000 }),
        charTokenizer,
      ))
        log.push(`chunk ${c.records.length}`);
    });
    expect(log).toEqual(['yield a', 'yield b', 'yield c', 'chunk 3']);
  });

  it('with flush "idle", emits the partial chunk when the source goes quiet, losing nothing', async () => {
    const log: string[] = [];
    const policy = chunkPolicy({ maxTokens: 1000, flush: { kind: 'idle', ms: 20 } });
    const out: Chunk[] = [];
    await onFakeTimers(async () => {
      for await (const c of chunks(slowTail(400, log), policy, charTokenizer)) {
        log.push(`chunk ${c.records.map((r) => r.ordinal).join(',')}`);
        out.push(c);
      }
    });
    expect(log).toEqual(['yield a', 'yield b', 'chunk 0,1', 'yield c', 'chunk 2']);
    expect(out.map((c) => [c.index, c.span])).toEqual([
      [1, [0, 2]],
      [2, [2, 3]],
    ]);
  });

  it('does not count time the consumer spends on a chunk as idle', async () => {
    async function* steady(): AsyncGenerator<SourceRecord> {
      for (let i = 0; i < 4; i++) yield record('user', 'x'.repeat(20));
    }
    const policy = chunkPolicy({ maxTokens: 60, flush: { kind: 'idle', ms: 10 } });
    const sizes: number[] = [];
    await onFakeTimers(async () => {
      for await (const c of chunks(steady(), policy, charTokenizer)) {
        sizes.push(c.records.length);
        await sleep(50); // a slow gate call
      }
    });
    expect(sizes).toEqual([2, 2]);
  });

  it('closes the source when the consumer stops early', async () => {
    let closed = false;
    async function* endless(): AsyncGenerator<SourceRecord> {
      try {
        for (let i = 0; ; i++) yield record('user', `message ${i}`);
      } finally {
        closed = true;
      }
    }
    for await (const c of chunks(endless(), chunkPolicy({ maxTokens: 40 }), charTokenizer)) {
      expect(c.index).toBe(1);
      break;
    }
    expect(closed).toBe(true);
  });

  it('passes a source error through', async () => {
    async function* failing(): AsyncGenerator<SourceRecord> {
      yield record('user', 'a');
      throw new Error('disk gone');
    }
    await expect(collect(chunks(failing(), chunkPolicy(), charTokenizer))).rejects.toThrow(
      'disk gone',
    );
  });
});
