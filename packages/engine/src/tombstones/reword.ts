import { eng } from 'stopword';
import { stemmer } from 'stemmer';
import { sha256Hex } from '@mem/core';

/*
 * The reword matcher tombstones refuse rewordings with (DESIGN §9). Deterministic and
 * hash-only: a text becomes the set of its content terms (lowercase words, stopwords out,
 * Porter stems: "dropped the cache" and "drops caching" share `drop` and `cach`), and each term
 * is kept as a 16-hex prefix of its sha256, so a tombstone stores no word of what it forgot.
 *
 * Deliberately more sensitive than a near-duplicate check: a false refusal costs the writer one
 * `--force`, a miss silently undoes a deletion. A candidate line matches a tombstone line of at
 * least MIN_TERMS terms when either
 *   - containment: at least CONTAINMENT of the tombstone's terms occur in the candidate (the
 *     forgotten claim restated inside a longer line), or
 *   - Jaccard: the two term sets overlap by at least JACCARD (a paraphrase that swaps words).
 * A tombstone of fewer terms refuses only its exact text: one shared word is not a rewording.
 */
export const REWORD_CONTAINMENT = 0.6;
export const REWORD_JACCARD = 0.4;
export const REWORD_MIN_TERMS = 2;

const STOPWORDS = new Set(eng);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’-]*/gu;

/** The sorted, distinct term hashes of `text`: what a `forgotten` line records and a write is compared by. */
export function termHashes(text: string): string[] {
  const hashes = new Set<string>();
  for (const match of text.normalize('NFC').toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/['’]s$/u, '').replace(/['’-]+$/u, '');
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    hashes.add(sha256Hex(`term:${stemmer(word)}`).slice(0, 16));
  }
  return [...hashes].sort();
}

/** Whether a candidate's term hashes reword a tombstone line's (see the rule above). */
export function rewords(candidate: readonly string[], tombstone: readonly string[]): boolean {
  if (tombstone.length < REWORD_MIN_TERMS || candidate.length === 0) return false;
  const have = new Set(candidate);
  const shared = tombstone.filter((term) => have.has(term)).length;
  const union = candidate.length + tombstone.length - shared;
  return shared / tombstone.length >= REWORD_CONTAINMENT || shared / union >= REWORD_JACCARD;
}
