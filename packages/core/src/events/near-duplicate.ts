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
 * Overlap alone folds two different facts that differ in the one word that matters, so a line
 * pair whose only differences are one or two words is kept apart when those words are
 *   - a negation on one side ("not", "no", "never", "without", any "…n't"; marked in the token
 *     set, never counted as a word): "do not deploy on Fridays" is not "deploy on Fridays";
 *   - a replaced word on each side that no word of the other side could be a form of
 *     ("staging hosts" / "canary hosts", "port 8080" / "port 8081", "enable" / "disable"). A
 *     form is a word sharing its first PREFIX_FORM characters (or the whole of the shorter
 *     word), never a word with a digit unless equal: "falling back" / "fallback", "colour" /
 *     "color", a word cut short by `…`. A synonym ("fixed" / "repaired") reads as replaced
 *     too — two lines kept apart cost a repeat; two folded cost a fact.
 */
export const NEAR_DUPLICATE_JACCARD = 0.6;
export const NEAR_DUPLICATE_CONTAINMENT = 0.8;
export const NEAR_DUPLICATE_MIN_TOKENS = 3;
/** Two different words are forms of one word when they share this many first characters. */
export const NEAR_DUPLICATE_PREFIX_FORM = 4;
/** At most this many words only one side has can change the fact (see changedFact). */
const CHANGED_MAX = 2;

const WORD = /[\p{L}\p{N}]+/gu;
/** Negation words (English); "…n't" is matched on the raw text. */
const NEGATION = new Set(['not', 'no', 'never', 'none', 'nor', 'cannot', 'without']);
const CONTRACTED_NOT = /\p{L}n['’]t\b/iu;
/**
 * The mark of a negated line in its token set: not a word (WORD never yields it), so the
 * overlap rule neither counts nor compares it — only changedFact reads it.
 */
const NEGATED = '¬';
const DIGIT = /\p{N}/u;

/** The distinct normalised tokens of a memory line, as near-duplicate compares them. */
export function lineTokens(text: string): Set<string> {
  const out = new Set<string>();
  const body = copiedText(text.trim()).replace(/…$/u, '').normalize('NFC').toLowerCase();
  for (const [word] of body.matchAll(WORD)) {
    if ([...word].length >= 3) out.add(word);
    if (NEGATION.has(word)) out.add(NEGATED);
  }
  if (CONTRACTED_NOT.test(body)) out.add(NEGATED);
  return out;
}

/** The words of a token set, without the negation mark. */
function words(tokens: ReadonlySet<string>): string[] {
  return [...tokens].filter((token) => token !== NEGATED);
}

/** Whether `a` and `b` (different words) could be forms of one word, by the rule above. */
function formsOfOneWord(a: string, b: string): boolean {
  if (DIGIT.test(a) || DIGIT.test(b)) return false;
  const shorter = Math.min(a.length, b.length);
  const need = Math.min(NEAR_DUPLICATE_PREFIX_FORM, shorter);
  return a.slice(0, need) === b.slice(0, need);
}

/**
 * Whether the words only one side has change the fact rather than its wording: a negation
 * that is (nearly) all one side adds, or one or two words on each side that are no form of any
 * word the other lacks — a value swapped in place. Lines that differ in more words are a
 * rewording, a reframing ("User reports: …" / "Open: … websearch tmux") or a restatement with
 * a clause added, left to the overlap rule.
 */
function changedFact(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const onlyA = words(a).filter((word) => !b.has(word));
  const onlyB = words(b).filter((word) => !a.has(word));
  if (a.has(NEGATED) !== b.has(NEGATED))
    return (a.has(NEGATED) ? onlyA : onlyB).length <= CHANGED_MAX;
  // Both negated (or neither): how each spells it ("not" / "never") is no change of fact.
  const unmatched = (words: string[], others: string[]) =>
    words.filter(
      (word) => !NEGATION.has(word) && !others.some((other) => formsOfOneWord(word, other)),
    ).length;
  const fromA = unmatched(onlyA, onlyB);
  const fromB = unmatched(onlyB, onlyA);
  return fromA >= 1 && fromA <= CHANGED_MAX && fromB >= 1 && fromB <= CHANGED_MAX;
}

/** Whether two token sets (lineTokens) say the same thing, by the rule above. */
export function nearDuplicateTokens(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [words(a), b] : [words(b), a];
  const largeSize = large.size - (large.has(NEGATED) ? 1 : 0);
  if (small.length === 0) return false;
  let shared = 0;
  for (const token of small) if (large.has(token)) shared += 1;
  const overlaps =
    small.length < NEAR_DUPLICATE_MIN_TOKENS
      ? shared === small.length && shared === largeSize
      : shared / small.length >= NEAR_DUPLICATE_CONTAINMENT ||
        shared / (small.length + largeSize - shared) >= NEAR_DUPLICATE_JACCARD;
  return overlaps && !changedFact(a, b);
}

/** Whether two memory lines are near-duplicates (normalised token overlap, see above). */
export function nearDuplicate(a: string, b: string): boolean {
  return nearDuplicateTokens(lineTokens(a), lineTokens(b));
}
