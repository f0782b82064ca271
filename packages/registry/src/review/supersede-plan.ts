import { MemError, contentSha256, type Payload } from '@mem/core';
import type { QueuedFinding, ReviewQueue } from './queue.js';

/**
 * What `review supersede` appends beside its decision: the finding's live lines but the newest
 * (the one stated last in the log) each superseded by the newest, so a duplicate or a
 * contradiction resolves to the latest statement, and nothing is deleted. A resurfacing finding
 * names a tombstone, not two statements: it is kept or dismissed, never superseded.
 */
export function supersedePlan(
  queue: ReviewQueue,
  project: string,
  finding: QueuedFinding,
  reason: string,
): Payload[] {
  const live = new Map(queue.liveLines.map((line) => [line.sha256, line]));
  const lines = finding.opened.subjects
    .map((sha) => live.get(sha))
    .filter((line) => line !== undefined)
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0) || a.sha256.localeCompare(b.sha256));
  if (finding.opened.kind === 'resurfacing' || lines.length < 2)
    throw new MemError(
      'INVALID_INPUT',
      `decision: finding ${finding.opened.id} in ${project} (${finding.opened.kind}) has ${lines.length} live line${lines.length === 1 ? '' : 's'} to resolve; supersede needs two statements, so keep or dismiss it`,
      { field: 'decision', project, id: finding.opened.id, expected: 'keep or dismiss' },
    );
  const newest = lines[lines.length - 1]!;
  return lines.slice(0, -1).map((old) => ({
    type: 'superseded',
    target: old.sha256,
    target_kind: 'line',
    before_sha256: contentSha256(old.text),
    after_sha256: newest.sha256,
    text: newest.text,
    reason,
  }));
}
