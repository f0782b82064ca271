import type { Finding } from './finding.js';
import type { QueuedItem } from './queue.js';

/*
 * Orphaned knowledge: a live fact or rule that has anchors, every one of them deleted. Anchored
 * knowledge is left out of T0 (it belongs to its threads) and a deleted thread's T1 is never
 * opened, so nothing loads it. Since stop 30 removing or deleting the last live anchor is
 * refused, but a store written before (or a log appended by hand) may hold such knowledge, and
 * nothing else lists it. One finding per item, naming it and its deleted anchors, so the same
 * orphan is the same finding on every scan; a new anchor later makes a new finding unnecessary,
 * not the old one wrong, so it stays open until decided like any other.
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
      subjects: [item.id, ...anchors].sort(),
      explanation: `${item.type} ${item.id} is anchored only to deleted items (${anchors.join(', ')}): no orient and no open loads it; anchor it to a live thread or task (mem items relate ${item.id} --relation anchor --target ID), or delete it`,
    });
  }
  return findings;
}
