import type { VaultFold } from './fold-state.js';

/**
 * What a line (or whole memory) of sha `sha` shows now: its own text, or, when superseded, the
 * text at the end of its supersession chain; null when it, or any text it was superseded by,
 * is tombstoned, or when the text at the end is forgotten. A chain that loops (a log written by
 * hand) stops where it repeats.
 *
 * Trigger: a superseded line is forgotten afterwards (its old words are refused from then on).
 * Why: the forget names the old text only; its replacement stays a live line in the item store
 * and pgvector, and `mem query` points at this note for it. Outcome: the line keeps showing its
 * replacement under its own block id, so links to it still resolve.
 */
export function liveText(fold: VaultFold, sha: string, text: string): string | null {
  const seen = new Set<string>();
  let current = { sha, text };
  while (!seen.has(current.sha)) {
    if (fold.tombstones.has(current.sha)) return null;
    seen.add(current.sha);
    const next = fold.superseded.get(current.sha);
    if (!next) break;
    current = { sha: next.sha256, text: next.text };
  }
  return fold.forgotten.has(current.sha) ? null : current.text;
}

/**
 * Whether a source note leaves out the chunk of evidence `sha`: a forgotten line rested on it and
 * no line still shown in an L1 note does. Its excerpt could hold the forgotten text, and nothing
 * live cites it any more.
 */
export function citedOnlyByForgotten(fold: VaultFold, sha: string): boolean {
  if (!fold.forgottenEvidence.has(sha)) return false;
  for (const note of fold.queries.values()) {
    const memory = note.memory;
    if (!memory || fold.forgotten.has(memory.sha256) || fold.tombstones.has(memory.sha256))
      continue;
    for (const line of memory.lines)
      if (line.parents.includes(sha) && liveText(fold, line.sha256, '') !== null) return false;
  }
  return true;
}
