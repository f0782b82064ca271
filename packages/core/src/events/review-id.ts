import { sha256Hex } from '../identity.js';

/** The id of a finding: the same kind on the same subjects is the same finding, on every scan. */
export function reviewId(kind: string, subjects: readonly string[]): string {
  return sha256Hex(`review:${kind}:${[...subjects].sort().join(',')}`);
}
