import type { SignatureParams } from './planned-write.js';

/**
 * One signature's occurrences in a batch, folded: the latest occurrence's raw line and node,
 * how many there were, and when the first and the last were seen.
 */
export interface SignatureFold extends Omit<SignatureParams, 'project' | 'ts'> {
  count: number;
  first_seen: string;
  last_seen: string;
}

/**
 * Folds a batch's signature occurrences (in log order) into one row per sig_sha, in first-seen
 * order: what applying them one by one would leave, so the database adds a batch in one call.
 * Pure.
 */
export function foldSignatures(occurrences: readonly SignatureParams[]): SignatureFold[] {
  const folds = new Map<string, SignatureFold>();
  for (const o of occurrences) {
    const fold = folds.get(o.sig_sha);
    if (!fold) {
      const { project: _project, ts, ...signature } = o;
      folds.set(o.sig_sha, { ...signature, count: 1, first_seen: ts, last_seen: ts });
      continue;
    }
    fold.count += 1;
    fold.raw = o.raw;
    fold.node_level = o.node_level;
    fold.node_sha = o.node_sha;
    fold.last_seen = o.ts;
  }
  return [...folds.values()];
}
