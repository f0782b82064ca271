import type { Tokenizer } from '@mem/chunk';

/** The most texts remembered per tokenizer: a page's lines and citations, many pages over. */
const REMEMBERED = 4096;

const counts = new WeakMap<Tokenizer, Map<string, number>>();

/**
 * `tokenizer.count`, remembered per process by text. Why: a tool context sizes every entry of
 * the bundle before the budget cuts it, and the same lines and citation excerpts come back
 * request after request; a text's count never changes, so nothing needs invalidating. When
 * full the memo starts over (a bound on memory, not an eviction policy worth its code).
 */
export function countTokens(tokenizer: Tokenizer, text: string): number {
  let memo = counts.get(tokenizer);
  if (!memo) counts.set(tokenizer, (memo = new Map<string, number>()));
  const known = memo.get(text);
  if (known !== undefined) return known;
  if (memo.size >= REMEMBERED) memo.clear();
  const n = tokenizer.count(text);
  memo.set(text, n);
  return n;
}
