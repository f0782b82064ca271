/*
 * Characters a writer may not put in stored text, and how a terminal is shown the ones old logs
 * and transcripts already hold. Text from HTTP and MCP writers, vault notes and transcripts is
 * untrusted: an ESC starts an ANSI sequence (colour, cursor moves, a retitled window), a CR
 * rewrites the line already shown, and a bidi override (U+202E) shows text in an order other
 * than the one stored. ZWJ and ZWNJ (U+200D, U+200C) are kept: emoji sequences and Persian and
 * Indic scripts need them, and they move no cursor.
 */

/**
 * Refused at the write boundary: C0 controls but tab and newline, DEL, C1 controls, and the
 * bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const REFUSED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Escaped when printed: all of REFUSED, and the invisible characters a person cannot see in a
 * terminal (zero-width space, LRM/RLM/ALM, word joiner, byte-order mark), which writers may
 * store (a pasted BOM is common) but which would hide text from a reader.
 */
const ESCAPED =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b\u200e\u200f\u061c\u2060\ufeff]/gu;

/** `U+001B`: a code point as people write it. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first character of `text` a writer may not store, with its position, or null. */
export function refusedControl(text: string): { char: string; index: number } | null {
  const found = REFUSED.exec(text);
  return found === null ? null : { char: found[0], index: found.index };
}

/**
 * `text` as a terminal should show it: each control or invisible character above as a visible
 * escape (`\x1b`, `\u202e`), newline and tab as they are. JSON output needs none of this:
 * JSON.stringify escapes C0 controls, and a JSON reader is not a terminal.
 */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPED, (char) => {
    const code = char.codePointAt(0)!;
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
