import { contentSha256, copiedText } from '@mem/core';
import type { ItemStore, NodeRow } from '@mem/projector-sqlite';

/**
 * The L1 line an L2 line copies out of the L1 memory it rests on: the line of that memory whose
 * text the L2 line repeats, with or without the synthesis's `[query-id] ` prefix. Undefined
 * when the L2 line says something of its own (a synthesis in other words): it then rests on
 * the memory as a whole.
 */
export function copiedLine(
  items: ItemStore,
  line: NodeRow,
  memorySha: string,
): NodeRow | undefined {
  const candidates = new Set([contentSha256(copiedText(line.text)), line.sha256]);
  for (const sha256 of candidates) {
    const held = items
      .lineEdges(line.project, 'L1', sha256)
      .some((edge) => edge.kind === 'memory' && edge.target_sha === memorySha);
    if (held) return items.line(line.project, 'L1', sha256);
  }
  return undefined;
}
