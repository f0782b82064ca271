import { termHashes } from '@mem/engine';
import { sameStatement } from './detect-duplicates.js';
import type { Finding } from './finding.js';
import type { QueuedItem } from './queue.js';

/*
 * Duplicate items (issue 13 §5: duplicates are folded with their lineage): two curated items of
 * one type whose summaries say the same thing by the line rule (sameStatement: equal normalised
 * text, or content terms overlapping by Jaccard >= 0.75 with equal values). Compared only while
 * both are in force: not deleted, not resolved (done, dropped), not filed under archive — an
 * archived item already left default recall, which is what the fold does. Items are not compared
 * with extracted lines: promoting a line to a fact restates it on purpose (its from_line says so).
 * The explanation proposes the fold `review supersede` appends: the newer item stays, the older
 * is filed under archive with a link to it, nothing deleted.
 */

const inForce = (item: QueuedItem) =>
  !item.deleted &&
  item.status !== 'done' &&
  item.status !== 'dropped' &&
  item.attention !== 'archive';

/** The duplicate findings among `items`, one per pair, in id order. */
export function detectItemDuplicates(items: ReadonlyMap<string, QueuedItem>): Finding[] {
  const live = [...items.values()].filter(inForce).sort((a, b) => a.id.localeCompare(b.id));
  const terms = new Map(live.map((item) => [item.id, termHashes(item.summary)]));
  const findings: Finding[] = [];
  for (let i = 0; i < live.length; i++)
    for (let j = i + 1; j < live.length; j++) {
      const a = live[i]!;
      const b = live[j]!;
      if (a.type !== b.type) continue;
      const why = sameStatement(a.summary, terms.get(a.id)!, b.summary, terms.get(b.id)!);
      if (why === null) continue;
      const [older, newer] = a.seq <= b.seq ? [a, b] : [b, a];
      findings.push({
        kind: 'duplicate',
        subjects: [a.id, b.id],
        explanation: `${a.type}s ${a.id} and ${b.id} ${why}; fold: review supersede keeps the newer ${newer.id} and files ${older.id} under archive, linked to it`,
      });
    }
  return findings;
}
