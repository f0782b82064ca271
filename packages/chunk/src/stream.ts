import type { Chunk } from './chunk.js';
import { ChunkPacker } from './packer.js';
import { DEFAULT_CHUNK_POLICY, assertChunkPolicy, type ChunkPolicy } from './policy.js';
import type { RecordSource, SourceRecord } from './record.js';
import { qwenTokenizer } from './tokenizer/qwen.js';
import type { Tokenizer } from './tokenizer/tokenizer.js';

const IDLE = Symbol('idle');

export interface ChunkStreamOptions {
  /** Per source URI, the first record ordinal to chunk (see ChunkPacker). */
  skipBefore?: ReadonlyMap<string, number>;
}

/**
 * Chunks a record stream. A batch source is just a finite stream: the same code serves a file
 * and a live tail. With `flush: { kind: 'idle', ms }` a partial chunk is also emitted when the
 * source has yielded nothing for `ms` while one is waiting; time spent by the consumer on a
 * chunk never counts as idle, because the source is not being read then.
 */
export async function* chunks(
  source: RecordSource,
  policy: ChunkPolicy = DEFAULT_CHUNK_POLICY,
  tokenizer: Tokenizer = qwenTokenizer(),
  options: ChunkStreamOptions = {},
): AsyncGenerator<Chunk, void, undefined> {
  assertChunkPolicy(policy);
  const packer = new ChunkPacker(policy, tokenizer, options.skipBefore);
  const idleMs = policy.flush.kind === 'idle' ? policy.flush.ms : null;
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    let next = iterator.next();
    for (;;) {
      const result =
        idleMs !== null && packer.hasPending ? await raceIdle(next, idleMs) : await next;
      if (result === IDLE) {
        // Trigger: a partial chunk waited `ms` with nothing new. Outcome: emit it; keep the
        // same pending next() so no record is lost or read twice.
        yield* packer.flush();
        continue;
      }
      if (result.done === true) {
        finished = true;
        break;
      }
      yield* packer.push(result.value);
      next = iterator.next();
    }
    yield* packer.flush();
  } finally {
    // The consumer stopped early (or the packer threw): let the source release what it holds.
    if (!finished) await iterator.return?.();
  }
}

async function raceIdle(
  next: Promise<IteratorResult<SourceRecord>>,
  ms: number,
): Promise<IteratorResult<SourceRecord> | typeof IDLE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<typeof IDLE>((resolve) => {
    timer = setTimeout(() => resolve(IDLE), ms);
  });
  try {
    return await Promise.race([next, idle]);
  } finally {
    clearTimeout(timer);
  }
}
