import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { packRecords } from './packer.js';
import { chunkPolicy } from './policy.js';
import { chunks } from './stream.js';
import { expectChunkingContract } from './testing/invariants.js';
import { recordStream, streamOf } from './testing/records.js';
import { roughRecords, transcriptFiles, transcriptsDir } from './testing/transcripts.js';
import { createQwenTokenizer, type QwenTokenCounter } from './tokenizer/qwen.js';

// The contract again, with real Qwen2.5 token counts (the unit suite uses one token per char).
let qwen: QwenTokenCounter;
beforeAll(() => {
  qwen = createQwenTokenizer();
});

describe('chunking with the Qwen tokenizer', () => {
  it('keeps the contract on random record streams', () => {
    fc.assert(
      fc.property(recordStream, fc.integer({ min: 32, max: 600 }), (records, maxTokens) => {
        const out = packRecords(records, chunkPolicy({ maxTokens }), qwen);
        expectChunkingContract(records, out, maxTokens, qwen);
      }),
      { numRuns: 100 },
    );
  });

  it('does not depend on what the tokenizer memoised before', () => {
    const records = fc.sample(recordStream, { numRuns: 1, seed: 7 })[0] ?? [];
    const policy = chunkPolicy({ maxTokens: 200 });
    expect(packRecords(records, policy, createQwenTokenizer())).toEqual(
      packRecords(records, policy, qwen),
    );
  });

  const dir = transcriptsDir();
  it(
    'keeps the contract on the real transcripts, at 5000 and 512 tokens',
    { timeout: 300_000 },
    async () => {
      for (const file of transcriptFiles(dir)) {
        const records = roughRecords(file);
        for (const maxTokens of [5000, 512]) {
          const policy = chunkPolicy({ maxTokens });
          const out: Awaited<ReturnType<typeof packRecords>> = [];
          for await (const c of chunks(streamOf(records), policy, qwen)) out.push(c);
          expectChunkingContract(records, out, maxTokens, qwen);
        }
      }
    },
  );
});
