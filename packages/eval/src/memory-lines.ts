/*
 * The unit the notes eval scores: a line of an L1/L2 memory, as the vault note renders it (one
 * list item per line). Issue 11 §3 makes lines first-class on the memory event; when it lands,
 * this is the one function to swap for reading them.
 */

const LIST_MARKER = /^(?:[-*+]|\d+[.)])\s+/;

/** The lines of a memory's text: CR/CRLF as LF, list markers and surrounding space removed, blank lines dropped. */
export function memoryLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trim().replace(LIST_MARKER, '').trim())
    .filter((line) => line.length > 0);
}
