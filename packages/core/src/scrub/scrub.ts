import { redacted } from './placeholder.js';
import { ANY_TRIGGER, SECRET_PATTERNS, type SecretPattern } from './patterns.js';

/** Text with its secrets replaced, and how many of each kind were replaced. */
export interface ScrubResult {
  text: string;
  /** Replacements by kind (`openai_key`, `password`, `private_key`, ...); kinds with none are absent. */
  counts: Record<string, number>;
}

/**
 * Replaces secrets in `text` by typed placeholders (`[REDACTED:<kind>]`). Pure: same text in,
 * same result out. Placeholders are never matched again, so scrubbing twice changes nothing.
 * Every pattern scans in linear time, so hostile text cannot stall ingest.
 */
export function scrubSecrets(text: string): ScrubResult {
  const counts: Record<string, number> = {};
  if (!ANY_TRIGGER.test(text)) return { text, counts };
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    if (pattern.trigger.test(out)) out = applyPattern(pattern, out, counts);
  }
  return { text: out, counts };
}

function applyPattern(
  pattern: SecretPattern,
  text: string,
  counts: Record<string, number>,
): string {
  const span = pattern.spans?.(text);
  const inContext = pattern.context?.(text);
  const pieces: string[] = [];
  let cursor = 0;
  for (const match of text.matchAll(pattern.regex)) {
    const index = match.index;
    // Trigger: a widened span swallowed this match already. Outcome: nothing more to replace.
    if (index < cursor) continue;
    if (inContext && !inContext(index)) continue;
    const replacement = pattern.replace
      ? pattern.replace(match[0], match.slice(1), index, text)
      : { kind: pattern.kind, text: redacted(pattern.kind) };
    if (replacement === null) continue;
    const [start, end] = span
      ? span(index, index + match[0].length)
      : [index, index + match[0].length];
    pieces.push(text.slice(cursor, Math.max(cursor, start)), replacement.text);
    cursor = end;
    counts[replacement.kind] = (counts[replacement.kind] ?? 0) + 1;
  }
  if (cursor === 0 && pieces.length === 0) return text;
  pieces.push(text.slice(cursor));
  return pieces.join('');
}
