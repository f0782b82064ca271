import { MemError } from '@mem/core';
import type { BpeModel } from './bpe.js';

/** The parts of a Hugging Face tokenizer.json the Qwen counter reads. */
export interface TokenizerJson {
  normalizer?: unknown;
  pre_tokenizer?: unknown;
  added_tokens?: readonly {
    content: string;
    lstrip?: boolean;
    rstrip?: boolean;
    single_word?: boolean;
  }[];
  model: BpeModel & {
    type?: string;
    dropout?: number | null;
    byte_fallback?: boolean;
    ignore_merges?: boolean;
    continuing_subword_prefix?: string | null;
    end_of_word_suffix?: string | null;
  };
}

// The Qwen2 pre-tokenizer pattern, verbatim from tokenizer.json; pretokenize.ts implements it.
export const QWEN2_SPLIT =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

interface PreTokenizerJson {
  type?: string;
  pretokenizers?: {
    type?: string;
    pattern?: { Regex?: string };
    behavior?: string;
    invert?: boolean;
    add_prefix_space?: boolean;
    use_regex?: boolean;
  }[];
}

/**
 * Refuses a tokenizer.json whose pipeline is not the one the counter implements: added tokens
 * without stripping, NFC, the Qwen2 split regex, byte-level, plain BPE (no dropout, byte
 * fallback, affixes or ignore_merges). A different vocabulary cannot be silently miscounted.
 */
export function assertQwen2Pipeline(json: TokenizerJson): void {
  const pre = json.pre_tokenizer as PreTokenizerJson | null | undefined;
  const [split, byteLevel] = pre?.pretokenizers ?? [];
  const model = json.model;
  const checks: [string, boolean][] = [
    ['normalizer', (json.normalizer as { type?: string } | null | undefined)?.type === 'NFC'],
    ['pre_tokenizer', pre?.type === 'Sequence' && pre.pretokenizers?.length === 2],
    [
      'pre_tokenizer.split',
      split?.type === 'Split' &&
        split.pattern?.Regex === QWEN2_SPLIT &&
        split.behavior === 'Isolated' &&
        split.invert === false,
    ],
    [
      'pre_tokenizer.byte_level',
      byteLevel?.type === 'ByteLevel' &&
        byteLevel.add_prefix_space === false &&
        byteLevel.use_regex === false,
    ],
    [
      'model',
      model.type === 'BPE' && model.dropout == null && !model.byte_fallback && !model.ignore_merges,
    ],
    ['model.affixes', !model.continuing_subword_prefix && !model.end_of_word_suffix],
    [
      'added_tokens',
      (json.added_tokens ?? []).every((t) => !t.lstrip && !t.rstrip && !t.single_word),
    ],
  ];
  const failed = checks.filter(([, ok]) => !ok).map(([field]) => field);
  if (failed.length > 0) {
    throw new MemError(
      'INVALID_INPUT',
      `tokenizer.json is not a Qwen2 byte-level BPE pipeline: unexpected ${failed.join(', ')}`,
      {
        field: failed[0],
        failed,
      },
    );
  }
}
