import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pretokenize } from './pretokenize.js';

// The Qwen2 split pattern exactly as the reference library (@lenml/tokenizers) compiles it:
// the `(?i:...)` group rewritten for JavaScript, flags `gu`.
const REFERENCE =
  /(?:'([sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

const reference = (text: string): string[] => text.match(REFERENCE) ?? [];

// Characters that sit on every edge of the regex: contractions, leading non-letters, digits of
// several scripts, each kind of whitespace (JS \s, and U+0085 which it excludes), combining
// marks, astral letters and digits, lone surrogates.
const ATOMS = [
  'a',
  'Z',
  'é',
  'ß',
  '中',
  'ǅ',
  'ſ',
  '1',
  '٣',
  'Ⅻ',
  '½',
  '𝟘',
  '𝐀',
  '😀',
  "'",
  "'s",
  "'S",
  "'re",
  "'RE",
  "'Ll",
  "'ve",
  "'d",
  "'x",
  's',
  't',
  'll',
  're',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u000b',
  '\u000c',
  '\u00a0',
  '\u0085',
  '\u1680',
  '\u2000',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u3000',
  '\ufeff',
  '.',
  ',',
  '"',
  '{',
  '}',
  '(',
  '-',
  '_',
  '#',
  '/',
  '\\',
  '\u0301',
  '\u200b',
  '\u0000',
  '\ud800',
  '\udfff',
];

const tricky = fc.array(fc.constantFrom(...ATOMS), { maxLength: 40 }).map((a) => a.join(''));

describe('pretokenize', () => {
  it('splits like the reference regex on edge cases', () => {
    for (const text of [
      '',
      'hello world',
      "I'm here, aren't you?",
      '  foo\n\n  bar  ',
      'x = 12345;\r\n',
      'a\u00a0b',
      '.\n\n[user]\n',
      'tab\there',
      '😀😀 ok',
      "'sam's",
    ]) {
      expect(pretokenize(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('splits like the reference regex on random tricky text', () => {
    fc.assert(
      fc.property(tricky, (text) => {
        expect(pretokenize(text)).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('splits like the reference regex on random Unicode', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
        (a, b) => {
          expect(pretokenize(a)).toEqual(reference(a));
          expect(pretokenize(b)).toEqual(reference(b));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('tiles the text', () => {
    fc.assert(
      fc.property(tricky, (text) => {
        expect(pretokenize(text).join('')).toBe(text);
      }),
    );
  });
});
