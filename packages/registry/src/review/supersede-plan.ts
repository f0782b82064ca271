import { MemError, contentSha256, type Payload } from '@mem/core';
import type { QueuedFinding, ReviewQueue } from './queue.js';

/**
 * What `review supersede` appends (a duplicate of items: itemFoldPlan below) beside its decision: the finding's live lines but the newest
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
  if (finding.opened.kind === 'duplicate' && finding.opened.subjects.every(isItemId))
    return itemFoldPlan(queue, project, finding, reason);
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

const isItemId = (subject: string) => subject.startsWith('it-');

/**
 * The fold of a duplicate-items finding (issue 13 §5, lineage kept): every older item still in
 * force filed under archive (it leaves default recall and T0) with a link to the newest, which
 * stays as it is. Nothing is deleted or resolved: a fact has no status, and a duplicate task
 * was not done. An item deleted, resolved or archived since the scan leaves fewer than two to
 * fold: refused like a line finding with one live line.
 */
function itemFoldPlan(
  queue: ReviewQueue,
  project: string,
  finding: QueuedFinding,
  reason: string,
): Payload[] {
  const items = finding.opened.subjects
    .map((id) => queue.items.get(id))
    .filter(
      (item) =>
        item !== undefined &&
        !item.deleted &&
        item.attention !== 'archive' &&
        item.status !== 'done' &&
        item.status !== 'dropped',
    )
    .map((item) => item!)
    .sort((a, b) => a.seq - b.seq);
  if (items.length < 2)
    throw new MemError(
      'INVALID_INPUT',
      `decision: finding ${finding.opened.id} in ${project} (duplicate) has ${items.length} item${items.length === 1 ? '' : 's'} in force to fold; supersede needs two, so keep or dismiss it`,
      { field: 'decision', project, id: finding.opened.id, expected: 'keep or dismiss' },
    );
  const newest = items[items.length - 1]!;
  return items.slice(0, -1).flatMap((old): Payload[] => [
    ...(old.links.has(newest.id)
      ? []
      : [
          {
            type: 'item_related' as const,
            item: old.id,
            relation: 'link' as const,
            target: newest.id,
            reason,
          },
        ]),
    { type: 'item_attention_set', item: old.id, attention: 'archive', reason },
  ]);
}
