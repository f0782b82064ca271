import { checkDims } from './dims.js';
import type { Embedder } from './embedder.js';
import { SEED, addFeature, fnv1a, fnv1aUnit } from './feature-hash.js';

/** Feature weights: whole words carry the meaning, bigrams some order, character n-grams spelling variants. */
export const HASH_WEIGHTS = { word: 1, bigram: 0.7, char: 0.3 } as const;

const WORD = /[\p{L}\p{N}_]+/gu;
const CHAR_NGRAM_MIN = 3;
const CHAR_NGRAM_MAX = 5;

/**
 * The embedded default embedder: deterministic feature hashing of word unigrams, word bigrams
 * and character 3–5-grams of the normalised text (NFC, lowercase), signed, L2-normalised.
 * No weights, no download, no I/O. A text without a letter or digit embeds as the zero vector.
 * Queries and documents embed alike: the features have no notion of a role.
 *
 * The name is `hash-<dims>`; any change to the features below must change the name, or caches
 * and projections keyed by it would mix vectors of two algorithms.
 */
export function hashEmbedder(dims = 768): Embedder {
  checkDims(dims, 'hashEmbedder');
  return {
    name: `hash-${dims}`,
    dims,
    async embed(texts) {
      return texts.map((text) => hashEmbed(text, dims));
    },
  };
}

/** One text's vector (synchronous: the embedder is pure CPU). */
export function hashEmbed(text: string, dims: number): Float32Array {
  const acc = new Float64Array(dims);
  const words = text.normalize('NFC').toLowerCase().match(WORD) ?? [];
  let previous = -1;
  for (const word of words) {
    const wordHash = fnv1a(SEED.word, word);
    addFeature(acc, wordHash, HASH_WEIGHTS.word);
    if (previous >= 0)
      addFeature(
        acc,
        fnv1a(fnv1aUnit(fnv1aUnit(SEED.bigram, previous & 0xffff), previous >>> 16), word),
        HASH_WEIGHTS.bigram,
      );
    previous = wordHash;
    addCharNgrams(acc, word);
  }
  return normalise(acc);
}

/**
 * Character n-grams of `<word>` (boundary marks, as fastText does). Each word's n-grams share
 * the char weight, divided by the square root of their count, so a long word's spelling does not
 * outweigh the word itself.
 */
function addCharNgrams(acc: Float64Array, word: string): void {
  const marked = `<${word}>`;
  const length = marked.length;
  let count = 0;
  for (let n = CHAR_NGRAM_MIN; n <= CHAR_NGRAM_MAX; n++) count += Math.max(0, length - n + 1);
  if (count === 0) return;
  const weight = HASH_WEIGHTS.char / Math.sqrt(count);
  for (let n = CHAR_NGRAM_MIN; n <= CHAR_NGRAM_MAX; n++) {
    for (let start = 0; start + n <= length; start++)
      addFeature(acc, fnv1a(SEED.char, marked, start, start + n), weight);
  }
}

function normalise(acc: Float64Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < acc.length; i++) norm += acc[i]! * acc[i]!;
  const out = new Float32Array(acc.length);
  if (norm === 0) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < acc.length; i++) out[i] = acc[i]! * scale;
  return out;
}
