/*
 * An L2 synthesis line that copies an L1 line reads `[query-id] <the L1 line>` (the heuristic
 * extractor's controller writes the prefix). Corrections and citations both need to see
 * through it: a supersede rewrites the copy with the new text, a citation finds the L1 line.
 */
const PREFIX = /^\[[^\]\n]+\] /u;

/** The `[query-id] ` prefix of a synthesis copy line, or '' for a line that has none. */
export function synthesisPrefix(text: string): string {
  return PREFIX.exec(text)?.[0] ?? '';
}

/** The text a synthesis copy line copies: the line without its `[query-id] ` prefix. */
export function copiedText(text: string): string {
  return text.slice(synthesisPrefix(text).length);
}
