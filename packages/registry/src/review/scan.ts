import { reviewId, type PayloadOf } from '@mem/core';
import type { Grounding } from '@mem/ingest';
import { detectContradictions } from './detect-contradictions.js';
import { detectDuplicates } from './detect-duplicates.js';
import { detectItemDuplicates } from './detect-item-duplicates.js';
import { detectResurfacing } from './detect-resurfacing.js';
import { detectOrphanedKnowledge } from './detect-orphaned-knowledge.js';
import { detectStaleGrounding } from './detect-stale-grounding.js';
import { joinDuplicatePairs, type Finding } from './finding.js';
import type { ReviewQueue } from './queue.js';

/**
 * The findings a scan appends: every detector's, stamped with its deterministic id, less those
 * the log already has. A finding already opened is never reopened, decided or not: a dismissed
 * duplicate stays dismissed until its lines change (new lines are new subjects, a new id).
 * `grounding` is what @mem/ingest's checkCitedSources found of the cited chunks (empty: none judged).
 */
export function planScan(
  queue: ReviewQueue,
  grounding: ReadonlyMap<string, Grounding> = new Map(),
): PayloadOf<'review_opened'>[] {
  const contradictions = detectContradictions(queue.liveLines);
  const explained = new Set(contradictions.map((f) => f.subjects.join(',')));
  // Duplicate pairs sharing a subject are one finding; a group a log already holds pair by pair
  // (scanned before they were joined) is not opened a second time.
  const duplicates = (pairs: Finding[], noun: string) =>
    joinDuplicatePairs(pairs, noun)
      .filter(
        (group) =>
          group.pairs.length === 1 ||
          !group.pairs.every((p) => queue.findings.has(reviewId(p.kind, p.subjects))),
      )
      .map((group) => group.finding);
  const proposed = [
    ...detectResurfacing(queue.resurfaced),
    ...contradictions,
    ...duplicates(detectDuplicates(queue.liveLines, explained), 'lines'),
    ...detectStaleGrounding(queue.liveLines, queue.evidence, grounding),
    ...duplicates(detectItemDuplicates(queue.items), 'items'),
    ...detectOrphanedKnowledge(queue.items),
  ];
  const planned = new Map<string, PayloadOf<'review_opened'>>();
  for (const finding of proposed) {
    const id = reviewId(finding.kind, finding.subjects);
    if (queue.findings.has(id) || planned.has(id)) continue;
    planned.set(id, { type: 'review_opened', id, ...finding });
  }
  return [...planned.values()];
}
