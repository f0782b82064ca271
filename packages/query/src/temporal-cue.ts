/**
 * The recency phrases a query may carry (issue 13 §5, English only): a small closed list, so a
 * cue is a fact of the text, never a guess. Longer phrases first, so "last week" is named
 * rather than a shorter phrase inside it.
 */
export const TEMPORAL_CUES: readonly string[] = [
  'this afternoon',
  'this evening',
  'this morning',
  'this week',
  'last month',
  'last night',
  'last week',
  'just now',
  'yesterday',
  'recently',
  'tonight',
  'lately',
  'latest',
  'newest',
  'recent',
  'today',
];

const CUE_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(${TEMPORAL_CUES.map((c) => c.replace(' ', '\\s+')).join('|')})(?![\\p{L}\\p{N}])`,
  'iu',
);

/** The first recency phrase of `text` (as the list spells it), or null when it has none. */
export function temporalCue(text: string): string | null {
  const found = CUE_PATTERN.exec(text);
  if (!found) return null;
  const said = found[1]!.toLowerCase().replace(/\s+/gu, ' ');
  return TEMPORAL_CUES.find((cue) => cue === said) ?? null;
}
