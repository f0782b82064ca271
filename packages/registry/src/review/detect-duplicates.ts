import { termHashes } from '@mem/engine';
import { valuesOf, withoutQueryPrefix } from './claim.js';
import { linePairs, short, type Finding, type LiveLine } from './finding.js';

/*
 * Duplicates: two live lines in different notes whose normalised content terms (the tombstone
 * reword matcher's termHashes: lowercase words, stopwords out, Porter stems) overlap by a
 * Jaccard of at least DUPLICATE_JACCARD, each with at least DUPLICATE_MIN_TERMS terms. The
 * matcher's own `rewords` is not reused: it is deliberately more sensitive (containment 0.6 or
 * Jaccard 0.4, since a miss there undoes a deletion), and a finding costs a person's attention.
 * Two lines whose normalised text is equal (normalisedStatement) are duplicates whatever their
 * length. Curated items are compared by the same rule (detect-item-duplicates.ts).
 * Not duplicates, by rule:
 *   - a line and the synthesis line that copies it (the L2 note's `[query] …` line, the same
 *     text under its query's prefix, or resting on the line's memory): provenance, on purpose;
 *   - two lines whose values differ (code spans, versions, numbers, paths: "Release v0.8.0"
 *     and "Release v0.27.3" are two releases), which the contradiction detector reads instead.
 */
export const DUPLICATE_JACCARD = 0.75;
export const DUPLICATE_MIN_TERMS = 3;

/** The duplicate findings among `lines`, skipping pairs `exclude` already explains (a contradiction). */
export function detectDuplicates(
  lines: readonly LiveLine[],
  exclude: ReadonlySet<string> = new Set(),
): Finding[] {
  const terms = new Map(lines.map((line) => [line.sha256, termHashes(line.text)]));
  const findings: Finding[] = [];
  for (const [a, b] of linePairs(lines)) {
    if (exclude.has(`${a.sha256},${b.sha256}`)) continue;
    if (a.note !== undefined && a.note === b.note) continue;
    if (restates(a, b) || restates(b, a)) continue;
    const why = sameStatement(a.text, terms.get(a.sha256)!, b.text, terms.get(b.sha256)!);
    if (why === null) continue;
    findings.push({
      kind: 'duplicate',
      subjects: [a.sha256, b.sha256],
      explanation: `lines ${short(a.sha256)} and ${short(b.sha256)} ${why}`,
    });
  }
  return findings;
}

/**
 * The text as two statements are compared for being the same words: NFC, lowercase, runs of
 * white space as one space, no trailing punctuation. "Use pnpm." and "use  pnpm" are one
 * statement, too short for the term rule (DUPLICATE_MIN_TERMS) yet plainly a duplicate.
 */
export function normalisedStatement(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[.!;:,\s]+$/u, '');
}

/**
 * Why two statements are duplicates (the end of an explanation), or null when they are not:
 * the same normalised text, or the term rule above with equal values.
 */
export function sameStatement(
  a: string,
  ta: readonly string[],
  b: string,
  tb: readonly string[],
): string | null {
  if (normalisedStatement(a) === normalisedStatement(b))
    return 'say the same words (equal once case, spacing and trailing punctuation are set aside)';
  if (valuesOf(a).join('\n') !== valuesOf(b).join('\n')) return null;
  if (ta.length < DUPLICATE_MIN_TERMS || tb.length < DUPLICATE_MIN_TERMS) return null;
  const have = new Set(ta);
  const shared = tb.filter((t) => have.has(t)).length;
  const jaccard = shared / (ta.length + tb.length - shared);
  if (jaccard < DUPLICATE_JACCARD) return null;
  return `share ${shared} of ${ta.length + tb.length - shared} content terms (Jaccard ${jaccard.toFixed(2)} >= ${DUPLICATE_JACCARD})`;
}

/** Whether `copy` is the synthesis restating `line`: its text under a query prefix, or resting on its memory. */
function restates(copy: LiveLine, line: LiveLine): boolean {
  if (copy.text !== line.text && withoutQueryPrefix(copy.text) === line.text) return true;
  return line.memory !== undefined && (copy.parents ?? []).includes(line.memory);
}
