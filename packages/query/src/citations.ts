import type { ItemStore, NodeRow } from '@mem/projector-sqlite';
import type { Citation } from './result.js';

/**
 * Walks provenance edges down from a memory: an L2's L1 parents, each followed by the L0
 * evidence it rests on (depth first, in the store's edge order). Evidence and references cite
 * nothing. A parent a tombstone deleted is not cited (its text was removed on purpose); a
 * dangling edge is skipped (`mem verify` reports it); an edge to R is skipped (R is never a
 * parent, seed 001).
 */
export function citationsOf(items: ItemStore, node: NodeRow): Citation[] {
  const out: Citation[] = [];
  const seen = new Set<string>();
  const walk = (level: NodeRow['level'], sha256: string): void => {
    for (const edge of items.edges(node.project, sha256, 'parents')) {
      if (edge.child_level !== level || edge.kind !== 'provenance' || edge.parent_level === 'R') continue;
      const id = `${edge.parent_level}:${edge.parent_sha}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const parent = items.node(node.project, edge.parent_sha, edge.parent_level);
      if (!parent || parent.deleted_at !== null) continue;
      out.push({ level: parent.level, sha256: parent.sha256, source: parent.source, text: parent.text, t: parent.t });
      if (parent.level === 'L1' || parent.level === 'L2') walk(parent.level, parent.sha256);
    }
  };
  if (node.level === 'L1' || node.level === 'L2') walk(node.level, node.sha256);
  return out;
}
