import { termHashes } from '@mem/engine';
import { valuesOf, withoutQueryPrefix } from './claim.js';
import { linePairs, short, type Finding, type LiveLine } from './finding.js';

/*
 * Duplicates: two live lines in different notes whose normalised content terms (the tombstone
 * reword matcher's termHashes: lowercase words, stopwords out, Porter stems) overlap by a
 * Jaccard of at least DUPLICATE_JACCARD, each with at least DUPLICATE_MIN_TERMS terms. The
 * matcher's own `rewords` is not reused: it is deliberately more sensitive (containment 0.6 or
 * Jaccard 0.4, since a miss there undoes a deletion), and a finding costs a person's attention.
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
    if (valuesOf(a.text).join('\n') !== valuesOf(b.text).join('\n')) continue;
    const ta = terms.get(a.sha256)!;
    const tb = terms.get(b.sha256)!;
    if (ta.length < DUPLICATE_MIN_TERMS || tb.length < DUPLICATE_MIN_TERMS) continue;
    const have = new Set(ta);
    const shared = tb.filter((t) => have.has(t)).length;
    const jaccard = shared / (ta.length + tb.length - shared);
    if (jaccard < DUPLICATE_JACCARD) continue;
    findings.push({
      kind: 'duplicate',
      subjects: [a.sha256, b.sha256],
      explanation: `lines ${short(a.sha256)} and ${short(b.sha256)} share ${shared} of ${ta.length + tb.length - shared} content terms (Jaccard ${jaccard.toFixed(2)} >= ${DUPLICATE_JACCARD})`,
    });
  }
  return findings;
}

/** Whether `copy` is the synthesis restating `line`: its text under a query prefix, or resting on its memory. */
function restates(copy: LiveLine, line: LiveLine): boolean {
  if (copy.text !== line.text && withoutQueryPrefix(copy.text) === line.text) return true;
  return line.memory !== undefined && (copy.parents ?? []).includes(line.memory);
}
