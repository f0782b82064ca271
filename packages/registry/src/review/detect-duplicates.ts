import { termHashes } from '@mem/engine';
import { linePairs, short, type Finding, type LiveLine } from './finding.js';

/*
 * Duplicates: two live lines whose normalised content terms (reword.ts: lowercase words,
 * stopwords out, Porter stems) overlap by a Jaccard of at least DUPLICATE_JACCARD, each with at
 * least DUPLICATE_MIN_TERMS terms. Stricter than the tombstone reword match on purpose: a
 * finding costs a person's attention, so it should be worth it; below three terms one shared
 * word decides too much.
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
