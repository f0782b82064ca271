import type { LinesParams, NodeParams, VectorKind } from './planned-write.js';

/** A text to embed and the vector kind it becomes. */
export interface VectorText {
  kind: VectorKind;
  text: string;
}

/**
 * The vectors a node gets: its text for reference passages (R). L0 evidence gets none: it is
 * reached through edges, for citations, never by similarity. L1/L2 memories get none either:
 * their lines do (lineVectorTexts), since an L1/L2 answer is a line (issue 11 §3).
 */
export function vectorTexts(node: NodeParams): VectorText[] {
  return node.level === 'R' ? [{ kind: 'text', text: node.text }] : [];
}

/**
 * The vectors a line gets: its own text, and the symptom of the first memory holding it that
 * carries one. Why the symptom per line and not per memory: a vector hit is then a line on
 * both kinds, and a line's vectors live and leave together (a forgotten line takes its symptom
 * match with it); the symptom is embedded once per batch however many lines carry it.
 */
export function lineVectorTexts(
  line: { text: string },
  symptom: LinesParams['symptom'],
): VectorText[] {
  const out: VectorText[] = [{ kind: 'text', text: line.text }];
  if (symptom !== null) out.push({ kind: 'symptom', text: symptom });
  return out;
}
