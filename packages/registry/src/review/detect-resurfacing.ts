import type { EventOf } from '@mem/core';
import type { Finding } from './finding.js';

/**
 * Resurfacing: every forced write a tombstone refused (`resurfaced`) opens one finding on the
 * tombstone and the line written anyway, so a person decides whether the forgetting still holds.
 */
export function detectResurfacing(events: readonly EventOf<'resurfaced'>[]): Finding[] {
  return events.map((e) => ({
    kind: 'resurfacing',
    subjects: [...new Set([e.tombstone, e.line_sha256])].sort(),
    explanation: `line ${e.line_sha256} was written with --force at seq ${e.seq} although tombstone ${e.tombstone} refuses it (${e.match} match)`,
  }));
}
