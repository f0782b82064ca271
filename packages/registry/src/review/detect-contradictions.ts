import { termHashes } from '@mem/engine';
import { linePairs, short, type Finding, type LiveLine } from './finding.js';

/*
 * Contradiction: two live lines that say the same thing about the same subject with different
 * values. Deterministic and shallow, by design:
 *   - a value is a version or number (`18`, `4.2.1`, `v20`) or a path (a token with a `/`);
 *   - the subject is the content terms of the line once its values are taken out (reword.ts);
 *   - two lines contradict when their subjects are the same set of at least
 *     CONTRADICTION_MIN_TERMS terms and their value sets are both non-empty and differ.
 * Limits, honestly: it sees only values of those shapes ("uses npm" against "uses pnpm" is not
 * caught), only subjects worded with the same terms (no synonyms), and not negation ("is" and
 * "is not" read the same, since "not" is a stopword); a line with two values differs from one
 * with either. It never decides which line is right: that is the finding's to ask. The explanation names
 * no value: a finding outlives a later `forget` of either line, and must not repeat its text.
 */
export const CONTRADICTION_MIN_TERMS = 2;

const NUMBER = /^v?\d+(?:\.\d+)*$/i;
const EDGE_PUNCTUATION = /^[("'`]+|[)"'`.,;:!?]+$/g;

/** A line's values (lowercased, sorted, distinct) and the content terms left without them. */
export function claimOf(text: string): { subject: string[]; values: string[] } {
  const values = new Set<string>();
  const rest: string[] = [];
  for (const token of text.split(/\s+/)) {
    const bare = token.replace(EDGE_PUNCTUATION, '');
    if (NUMBER.test(bare) || (bare.includes('/') && bare.length > 1))
      values.add(bare.toLowerCase().replace(/\/$/, ''));
    else rest.push(token);
  }
  return { subject: termHashes(rest.join(' ')), values: [...values].sort() };
}

/** The contradiction findings among `lines`. */
export function detectContradictions(lines: readonly LiveLine[]): Finding[] {
  const claims = new Map(lines.map((line) => [line.sha256, claimOf(line.text)]));
  const findings: Finding[] = [];
  for (const [a, b] of linePairs(lines)) {
    const ca = claims.get(a.sha256)!;
    const cb = claims.get(b.sha256)!;
    if (ca.subject.length < CONTRADICTION_MIN_TERMS) continue;
    if (ca.values.length === 0 || cb.values.length === 0) continue;
    if (ca.subject.join(',') !== cb.subject.join(',')) continue;
    if (ca.values.join(',') === cb.values.join(',')) continue;
    findings.push({
      kind: 'contradiction',
      subjects: [a.sha256, b.sha256],
      explanation: `lines ${short(a.sha256)} and ${short(b.sha256)} state the same subject (${ca.subject.length} content terms) with different values (a version, number or path: ${ca.values.length} against ${cb.values.length}, the sets differ)`,
    });
  }
  return findings;
}
