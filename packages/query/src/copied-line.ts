import { contentSha256, copiedText, nearDuplicate, splitMemoryLines } from '@mem/core';
import type { ItemStore, NodeRow } from '@mem/projector-sqlite';

/**
 * The L1 line an L2 line copies out of the L1 memory it rests on: the line of that memory whose
 * text the L2 line repeats, with or without the synthesis's `[query-id] ` prefix; else, for an
 * L2 line the synthesis folded from near-duplicates of several notes, the line of this memory
 * it near-duplicates (the synthesis folds by the same rule). Undefined when the L2 line says
 * something of its own (a synthesis in other words): it then rests on the memory as a whole.
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
  const memory = items.node(line.project, memorySha, 'L1', 'memory');
  if (memory === undefined) return undefined;
  const folded = splitMemoryLines(memory.text).find((held) => nearDuplicate(line.text, held));
  return folded === undefined ? undefined : items.line(line.project, 'L1', contentSha256(folded));
}
