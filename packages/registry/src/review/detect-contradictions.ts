import { claimOf } from './claim.js';
import { linePairs, short, type Finding, type LiveLine } from './finding.js';

/*
 * Contradiction: two live lines in force that claim a state of the same subject (claim.ts:
 * equal keys) with different values ("the tests run with `pytest -x`" against "... with
 * `npm test`"; "port is 5432" against "port is 6543"). It never decides which is right: that is
 * the finding's to ask. The explanation names no value: a finding outlives a later `forget` of
 * either line, and must not repeat its text.
 */

/** The contradiction findings among `lines`. */
export function detectContradictions(lines: readonly LiveLine[]): Finding[] {
  const claims = new Map(lines.map((line) => [line.sha256, claimOf(line.text)]));
  const findings: Finding[] = [];
  for (const [a, b] of linePairs(lines)) {
    const ca = claims.get(a.sha256);
    const cb = claims.get(b.sha256);
    if (!ca || !cb || ca.key !== cb.key) continue;
    if (ca.values.join('\n') === cb.values.join('\n')) continue;
    findings.push({
      kind: 'contradiction',
      subjects: [a.sha256, b.sha256],
      explanation: `lines ${short(a.sha256)} and ${short(b.sha256)} claim the same subject with the same state verb (same key terms) but different values (a code span, version, number or path: ${ca.values.length} against ${cb.values.length}, the sets differ)`,
    });
  }
  return findings;
}
