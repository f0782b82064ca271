import type { SignatureParams } from './planned-write.js';

/** One signature's occurrences in a batch, folded. */
export interface SignatureFold {
  sig_sha: string;
  signature: string;
  tool: string;
  /** The latest occurrence's raw line and node. */
  raw: string;
  node_level: 'L1' | 'L2';
  node_sha: string;
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
      folds.set(o.sig_sha, { sig_sha: o.sig_sha, signature: o.signature, tool: o.tool, raw: o.raw, node_level: o.node_level, node_sha: o.node_sha, count: 1, first_seen: o.ts, last_seen: o.ts });
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
