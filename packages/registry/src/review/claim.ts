import { termHashes } from '@mem/engine';

/*
 * A line read as a claim of state: `<subject> <link> <predicate>`, e.g. "the tests run with
 * `pytest -x`", "port is 5432", "the build requires Node 18 on CI". Deterministic and shallow:
 *   - the link is the first of a closed list of state verbs (LINK below) in the line's first
 *     clause (up to `.`, `;`, `: `, ` - ` or `, `); a line without one states an event, not a
 *     state ("Fixed the type in `a.ts`", "Commit: Release v0.8.0") and claims nothing;
 *   - a value is a code span, a version or number (`18`, `4.2.1`, `v20`) or a path (a token
 *     with a `/`) in the predicate;
 *   - the key is the subject's content terms, the link, a `not` when the predicate negates, and
 *     the predicate's content terms once its values are taken out (reword.ts's terms);
 * so two claims are about the same subject when their keys are equal, and disagree when their
 * value sets differ. Limits: no synonyms ("uses" and "relies on" are different links), no
 * values of other shapes ("uses npm" against "uses pnpm" is not a value clash).
 */
const LINK =
  /\b(is|are|was|were|runs? (?:with|on|via)|uses?|requires?|needs?|listens? on|defaults? to|lives? in|points? to|should be|must be|set to)\b/i;
const CLAUSE_END = /(?:\.(?:\s|$)|;|: | - |, )/;
const CODE_SPAN = /`([^`\n]+)`/g;
const NUMBER = /^v?\d+(?:\.\d+)*$/i;
const EDGE_PUNCTUATION = /^[("'`]+|[)"'`.,;:!?]+$/g;
const NEGATION = /\b(?:not|never|no longer)\b|n't\b/i;
/** A synthesis copy's `[query-id] ` prefix: the same claim, restated. */
const QUERY_PREFIX = /^\[[a-z0-9-]+\]\s+/i;

/** `text` without the `[query-id] ` prefix the L2 synthesis copies an L1 line under. */
export const withoutQueryPrefix = (text: string) => text.replace(QUERY_PREFIX, '');

/** What a line claims, or null when its first clause states no state with a value. */
export interface Claim {
  key: string;
  values: string[];
}

/** The values anywhere in `text` (code spans, versions, numbers, paths), lowercased, sorted, distinct. */
export function valuesOf(text: string): string[] {
  const values = new Set<string>();
  const rest = text.replace(CODE_SPAN, (_, code: string) => {
    values.add(code.trim().toLowerCase());
    return ' ';
  });
  for (const token of rest.split(/\s+/)) {
    const bare = token.replace(EDGE_PUNCTUATION, '');
    if (NUMBER.test(bare) || (bare.includes('/') && bare.length > 1))
      values.add(bare.toLowerCase().replace(/\/$/, ''));
  }
  return [...values].sort();
}

export function claimOf(text: string): Claim | null {
  const clause = withoutQueryPrefix(text).split(CLAUSE_END, 1)[0]!;
  const link = LINK.exec(clause);
  if (!link) return null;
  const subject = termHashes(clause.slice(0, link.index));
  if (subject.length === 0) return null;
  const values = new Set<string>();
  const predicate = clause
    .slice(link.index + link[0].length)
    .replace(CODE_SPAN, (_, code: string) => {
      values.add(code.trim().toLowerCase());
      return ' ';
    });
  const rest: string[] = [];
  for (const token of predicate.split(/\s+/)) {
    const bare = token.replace(EDGE_PUNCTUATION, '');
    if (NUMBER.test(bare) || (bare.includes('/') && bare.length > 1))
      values.add(bare.toLowerCase().replace(/\/$/, ''));
    else rest.push(token);
  }
  if (values.size === 0) return null;
  const negated = NEGATION.test(predicate) ? 'not' : '';
  const key = [
    subject.join(','),
    link[0].toLowerCase(),
    negated,
    termHashes(rest.join(' ')).join(','),
  ];
  return { key: key.join('|'), values: [...values].sort() };
}
