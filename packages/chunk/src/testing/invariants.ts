import { contentSha256 } from '@mem/core';
import { expect } from 'vitest';
import type { Chunk } from '../chunk.js';
import type { SourceRecord } from '../record.js';
import { renderBlock } from '../render.js';
import type { Tokenizer } from '../tokenizer/tokenizer.js';

/**
 * The chunker's contract, checked on one input and its output:
 * (a) no chunk exceeds maxTokens, and `tokens` is the exact count of `text`;
 * (b) the chunks' record texts, in order, reproduce every record's text, none lost or repeated;
 * (c) a record is split only when its block alone exceeds the budget, and is split then;
 * (d) sha256 is contentSha256(text);
 * plus: indices run 1..n, one source per chunk, spans match, and a chunk closes early only
 * when the next record would not fit or the source changes.
 * Violations are collected and asserted once (an expect per item is slow in a property run).
 */
export function expectChunkingContract(
  records: readonly SourceRecord[],
  chunks: readonly Chunk[],
  maxTokens: number,
  tokenizer: Tokenizer,
): void {
  const problems: string[] = [];
  const check = (ok: boolean, what: string): void => {
    if (!ok) problems.push(what);
  };

  chunks.forEach((chunk, i) => {
    const at = `chunk ${i + 1}`;
    check(chunk.index === i + 1, `${at}: index ${chunk.index}`);
    check(chunk.tokens <= maxTokens, `${at}: ${chunk.tokens} tokens > ${maxTokens}`); // (a)
    check(
      chunk.tokens === tokenizer.count(chunk.text),
      `${at}: tokens ${chunk.tokens} != count(text) ${tokenizer.count(chunk.text)}`,
    );
    check(chunk.sha256 === contentSha256(chunk.text), `${at}: sha256`); // (d)
    check(chunk.records.length > 0, `${at}: no records`);
    check(
      chunk.records.every((r) => r.provenance.source === chunk.source),
      `${at}: mixes sources`,
    );
    const first = chunk.records[0]?.ordinal ?? -1;
    // A piece of a split record completes it only when it is the last piece: [n, n] before, [n, n + 1] then.
    const completes = chunk.splitOf === undefined || chunk.splitOf.part === chunk.splitOf.parts;
    check(
      chunk.span[0] === first &&
        chunk.span[1] === (chunk.records.at(-1)?.ordinal ?? -2) + (completes ? 1 : 0),
      `${at}: span ${String(chunk.span)}`,
    );
    check(
      chunk.records.every((r, k) => r.ordinal === first + k),
      `${at}: ordinals not contiguous`,
    );
    check(
      chunk.splitOf === undefined || chunk.records.length === 1,
      `${at}: split chunk with several records`,
    );
  });

  // (b) Walk the chunks in order and rebuild each record from the text ranges it occupies.
  const rebuilt: { source: string; ordinal: number; text: string; parts: number }[] = [];
  for (const chunk of chunks) {
    for (const r of chunk.records) {
      const piece = chunk.text.slice(r.textRange[0], r.textRange[1]);
      const last = rebuilt.at(-1);
      if (r.part !== undefined && r.part.chars[0] > 0 && last !== undefined) {
        check(
          last.source === r.provenance.source && last.ordinal === r.ordinal,
          `part of ${r.provenance.source}#${r.ordinal} out of order`,
        );
        last.text += piece;
        last.parts += 1;
      } else {
        rebuilt.push({ source: r.provenance.source, ordinal: r.ordinal, text: piece, parts: 1 });
      }
    }
  }
  const ordinals = new Map<string, number>();
  const expected = records.map((r) => {
    const ordinal = ordinals.get(r.provenance.source) ?? 0;
    ordinals.set(r.provenance.source, ordinal + 1);
    return { source: r.provenance.source, ordinal, text: r.text };
  });
  expect(rebuilt.map(({ source, ordinal, text }) => ({ source, ordinal, text }))).toEqual(expected);

  // (c) Split exactly when the record's own block is over budget.
  records.forEach((r, i) => {
    const alone = tokenizer.count(renderBlock(r.role, r.text).text);
    const parts = rebuilt[i]?.parts ?? 0;
    if (alone > maxTokens) check(parts >= 2, `record ${i} (${alone} tokens alone) not split`);
    else check(parts === 1, `record ${i} (${alone} tokens alone) split into ${parts}`);
  });

  // Greedy: a whole-record chunk followed by one of the same source closed only because the
  // next record did not fit.
  for (let i = 0; i + 1 < chunks.length; i++) {
    const [a, b] = [chunks[i] as Chunk, chunks[i + 1] as Chunk];
    const first = b.records[0];
    if (
      a.splitOf !== undefined ||
      b.splitOf !== undefined ||
      a.source !== b.source ||
      first === undefined
    )
      continue;
    const firstBlock = b.text.slice(0, first.textRange[1] + 2);
    check(
      a.tokens + tokenizer.count(firstBlock) > maxTokens,
      `chunk ${i + 1} closed before it was full`,
    );
  }

  expect(problems).toEqual([]);
}
