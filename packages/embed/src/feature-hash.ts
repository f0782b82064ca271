/*
 * Signed feature hashing (the "hashing trick"): a feature string is hashed once; the hash picks
 * a bucket and a sign. Signs make collisions cancel on average instead of piling up, so inner
 * products stay unbiased. FNV-1a over UTF-16 code units, then murmur3's finaliser for avalanche:
 * plain FNV leaves the low bits (the bucket) poorly mixed for short strings.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a of `text[start, end)` continuing from `seed`. */
export function fnv1a(seed: number, text: string, start = 0, end = text.length): number {
  let h = seed;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/** FNV-1a of one code unit (a separator between the parts of a composite feature). */
export function fnv1aUnit(seed: number, unit: number): number {
  return Math.imul(seed ^ unit, FNV_PRIME) >>> 0;
}

/** murmur3 fmix32. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Seeds keep the feature families (words, bigrams, character n-grams) in separate hash spaces. */
export const SEED = {
  word: fnv1a(FNV_OFFSET, 'w\u0000'),
  bigram: fnv1a(FNV_OFFSET, 'b\u0000'),
  char: fnv1a(FNV_OFFSET, 'c\u0000'),
} as const;

/** Adds `weight` to the bucket `hash` picks, with the sign another mix of it picks. */
export function addFeature(vector: Float64Array, hash: number, weight: number): void {
  const mixed = fmix32(hash);
  const bucket = mixed % vector.length;
  // A second, independent mix for the sign: the bucket already used up `mixed`'s entropy.
  const sign = fmix32(mixed ^ 0x9e3779b9) & 1 ? 1 : -1;
  vector[bucket]! += sign * weight;
}
