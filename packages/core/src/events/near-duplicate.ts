import { copiedText } from './synthesis-copy.js';

/*
 * When two memory lines say the same thing: the synthesis folds such lines of different L1
 * notes into one L2 line, and a citation finds the L1 line an L2 line folded. Compared on
 * normalised tokens (lowercase letters and digits, words of three characters or more, the
 * synthesis's `[query-id] ` prefix and a trailing ellipsis off), never on one phrasing:
 *   - Jaccard ≥ JACCARD: the two lines share most of their words (a reworded finding), or
 *   - containment ≥ CONTAINMENT: the shorter line's words are nearly all in the longer one
 *     (a line cut short with `…`, or one that restates another and adds an ending).
 * A line of fewer than MIN_TOKENS tokens is a near-duplicate only of its own tokens: two
 * short lines sharing one word are not one finding.
 */
export const NEAR_DUPLICATE_JACCARD = 0.6;
export const NEAR_DUPLICATE_CONTAINMENT = 0.8;
export const NEAR_DUPLICATE_MIN_TOKENS = 3;

const WORD = /[\p{L}\p{N}]+/gu;

/** The distinct normalised tokens of a memory line, as near-duplicate compares them. */
export function lineTokens(text: string): Set<string> {
  const out = new Set<string>();
  const body = copiedText(text.trim()).replace(/…$/u, '');
  for (const match of body.normalize('NFC').toLowerCase().matchAll(WORD))
    if ([...match[0]].length >= 3) out.add(match[0]);
  return out;
}

/** Whether two token sets (lineTokens) say the same thing, by the rule above. */
export function nearDuplicateTokens(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return false;
  let shared = 0;
  for (const token of small) if (large.has(token)) shared += 1;
  if (small.size < NEAR_DUPLICATE_MIN_TOKENS) return shared === small.size && shared === large.size;
  return (
    shared / small.size >= NEAR_DUPLICATE_CONTAINMENT ||
    shared / (small.size + large.size - shared) >= NEAR_DUPLICATE_JACCARD
  );
}

/** Whether two memory lines are near-duplicates (normalised token overlap, see above). */
export function nearDuplicate(a: string, b: string): boolean {
  return nearDuplicateTokens(lineTokens(a), lineTokens(b));
}
