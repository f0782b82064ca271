/**
 * Private key blocks, found without regex backtracking: a block runs from its BEGIN line to the
 * next END line; a block cut off before its END (a truncated output) runs over the base64 lines
 * that follow; the other half of a cut block (`tail id_rsa`) runs back over the base64 lines
 * before its END. All three are linear in the text, whatever it holds.
 */

/** The BEGIN line of a PEM / OpenSSH / PGP private key. */
export const KEY_BEGIN = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** The END line of one. */
export const KEY_END = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

const MAX_KEY_LINES = 200;
const BASE64_LINE = /^[A-Za-z0-9+/=]{16,128}$/u;

/** Remembers the last END search, so many BEGIN lines cost one pass over the text, not one each. */
export class KeyEndFinder {
  private from = -1;
  private found: { start: number; end: number } | null = null;

  constructor(private readonly text: string) {}

  /** The first END line at or after `position`. */
  next(position: number): { start: number; end: number } | null {
    if (
      this.from !== -1 &&
      position >= this.from &&
      (this.found === null || this.found.start >= position)
    )
      return this.found;
    const end = new RegExp(KEY_END.source, 'g');
    end.lastIndex = position;
    const m = end.exec(this.text);
    this.from = position;
    this.found = m === null ? null : { start: m.index, end: m.index + m[0].length };
    return this.found;
  }
}

/** Where a block starting with a BEGIN line at [start, end) ends. */
export function keyBlockEnd(text: string, end: number, ends: KeyEndFinder): number {
  const close = ends.next(end);
  if (close !== null) return close.end;
  // No END line after it: consume what a key body is made of (base64, PEM headers, escaped newlines).
  let i = end;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */ && /[nrt]/u.test(text[i + 1] ?? '')) i += 2;
    else if (isKeyBodyChar(c)) i += 1;
    else break;
  }
  return i;
}

/** Where the base64 lines before an END line at `start` begin (`start` itself when there are none). */
export function keyTailStart(text: string, start: number): number {
  let lineEnd = start;
  for (let n = 0; n < MAX_KEY_LINES; n++) {
    const newline = newlineBefore(text, lineEnd);
    if (newline === null) break;
    const lineStart = lineStartBefore(text, newline.start);
    const line = text.slice(lineStart, newline.start).replace(/\r$/u, '');
    if (!BASE64_LINE.test(line)) break;
    lineEnd = lineStart;
  }
  return lineEnd;
}

/** The newline (real, or a JSON `\n` escape) that ends right at `position`. */
function newlineBefore(text: string, position: number): { start: number } | null {
  if (text[position - 1] === '\n') return { start: position - 1 };
  if (text[position - 1] === 'n' && text[position - 2] === '\\') return { start: position - 2 };
  return null;
}

/** Start of the line ending at `position`: after a real or escaped newline, at most 130 characters back. */
function lineStartBefore(text: string, position: number): number {
  const floor = Math.max(0, position - 130);
  for (let i = position - 1; i >= floor; i--) {
    if (text[i] === '\n') return i + 1;
    if (text[i] === 'n' && text[i - 1] === '\\') return i + 1;
  }
  return floor;
}

function isKeyBodyChar(c: number): boolean {
  return (
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2b ||
    c === 0x2f ||
    c === 0x3d || // + / =
    c === 0x3a ||
    c === 0x2c ||
    c === 0x2d || // : , - (PEM headers)
    c === 0x20 ||
    c === 0x09 ||
    c === 0x0a ||
    c === 0x0d
  );
}
