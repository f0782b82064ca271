/*
 * Character classes of the Qwen2 pre-tokenizer regex, per code point, with the semantics of
 * the JavaScript regex the reference library (@lenml/tokenizers) compiles from tokenizer.json
 * (`u` flag): `\p{L}`, `\p{N}`, `\s`. Non-ASCII classes are computed once per code point and
 * memoised, because a regex test per character is what made the reference slow.
 */

export const LETTER = 1;
export const NUMBER = 2;
/** `\s` other than `\r` and `\n`. */
export const SPACE = 3;
/** `\r` or `\n`. */
export const NEWLINE = 4;
/** Everything else: punctuation, symbols, marks, controls, lone surrogates. */
export const OTHER = 5;

const LETTER_RE = /^\p{L}$/u;
const NUMBER_RE = /^\p{N}$/u;
const SPACE_RE = /^\s$/u;

function classify(codePoint: number): number {
  if (codePoint === 0x0a || codePoint === 0x0d) return NEWLINE;
  const ch = String.fromCodePoint(codePoint);
  if (LETTER_RE.test(ch)) return LETTER;
  if (NUMBER_RE.test(ch)) return NUMBER;
  if (SPACE_RE.test(ch)) return SPACE;
  return OTHER;
}

// 0 = not yet classified. One byte per code point (1.1 MB), filled on first sight.
const table = new Uint8Array(0x110000);
for (let cp = 0; cp < 0x80; cp++) table[cp] = classify(cp);

/** The pre-tokenizer class of one code point. */
export function charClass(codePoint: number): number {
  const known = table[codePoint] as number;
  if (known !== 0) return known;
  const computed = classify(codePoint);
  table[codePoint] = computed;
  return computed;
}
