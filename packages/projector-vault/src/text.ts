/* Text shaping for notes: LF only, no trailing blank lines, bounded excerpts. No locale anywhere. */

const EXCERPT_MAX = 60;
const EXCERPT_MIN_CUT = 20;

/** A block of markdown from event text: CR/CRLF become LF, leading blank lines and trailing whitespace go. */
export function markdownBlock(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
}

/**
 * Event text made inert for Obsidian: `[[` (a shell test, a regex, a pasted note) would open a
 * wikilink to a note nobody writes. Every `[` followed by another `[` gets a backslash after it,
 * so the text holds no `[[` at all (`[[[` too) and still reads as brackets.
 */
export function inertLinks(text: string): string {
  return text.replace(/\[(?=\[)/g, '[\\');
}

/** Text on one line: every run of whitespace becomes one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * A short one-line excerpt of evidence text for a provenance line: at most 60 code points,
 * cut at a word boundary when one is near, marked with `…` when cut.
 */
export function excerptOf(text: string): string {
  const points = Array.from(oneLine(text));
  if (points.length <= EXCERPT_MAX) return points.join('');
  let head = points.slice(0, EXCERPT_MAX).join('');
  const space = head.lastIndexOf(' ');
  if (space >= EXCERPT_MIN_CUT) head = head.slice(0, space);
  return `${head.trimEnd()}…`;
}

/** The UTC calendar day (YYYY-MM-DD) of an event's `ts`: log data, never the clock. */
export function dayOf(ts: string): string {
  // The catalogue only admits ISO-8601 UTC timestamps (`...Z`), so the first ten characters are the UTC day.
  return ts.slice(0, 10);
}
