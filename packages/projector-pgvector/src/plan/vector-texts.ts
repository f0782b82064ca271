import type { NodeParams, VectorKind } from './planned-write.js';

/**
 * The vectors a node gets: its text for memories (L1, L2) and reference passages (R), and its
 * symptom when its event carried one. L0 evidence gets none: it is reached through edges, for
 * citations, never by similarity.
 */
export function vectorTexts(node: NodeParams): { kind: VectorKind; text: string }[] {
  if (node.level === 'L0') return [];
  const out: { kind: VectorKind; text: string }[] = [{ kind: 'text', text: node.text }];
  if (node.symptom !== null) out.push({ kind: 'symptom', text: node.symptom });
  return out;
}
