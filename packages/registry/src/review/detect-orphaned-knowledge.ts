import type { Finding } from './finding.js';
import type { QueuedItem } from './queue.js';

/*
 * Orphaned knowledge: a live fact or rule that has anchors, every one of them deleted. Anchored
 * knowledge is left out of T0 (it belongs to its threads) and a deleted thread's T1 is never
 * opened, so nothing loads it. Since stop 30 removing or deleting the last live anchor is
 * refused, but a store written before (or a log appended by hand) may hold such knowledge, and
 * nothing else lists it. One finding per item, its subject the item alone (the explanation names
 * its deleted anchors), so the same orphan is the same finding on every scan even when its
 * deleted anchors change: keyed on the anchors too, an orphan anchored again to a thread that is
 * deleted in turn got a second open finding beside the first. A new anchor later makes the
 * finding unnecessary, not wrong, so it stays open until decided like any other; once kept or
 * dismissed it is not reopened (a scan never reopens a finding's id), even if the item is
 * orphaned again, which since stop 30 only a log appended by hand can do.
 */

/** The orphaned-knowledge findings among `items`, in id order. */
export function detectOrphanedKnowledge(items: ReadonlyMap<string, QueuedItem>): Finding[] {
  const findings: Finding[] = [];
  for (const item of [...items.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    if (item.deleted || (item.type !== 'fact' && item.type !== 'rule')) continue;
    const anchors = [...item.anchors].sort();
    if (anchors.length === 0 || anchors.some((a) => items.get(a)?.deleted !== true)) continue;
    findings.push({
      kind: 'orphaned_knowledge',
      subjects: [item.id],
      explanation: `${item.type} ${item.id} is anchored only to deleted items (${anchors.join(', ')}): no orient and no open loads it; anchor it to a live thread or task (mem items relate ${item.id} --relation anchor --target ID), or delete it`,
    });
  }
  return findings;
}
