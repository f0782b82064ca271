import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capText } from './cap.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

describe('capText', () => {
  it('leaves short text alone', () => {
    expect(capText('abc', 10)).toEqual({ text: 'abc', cut: 0 });
  });

  it('keeps head and tail and says how much was cut', () => {
    const text = `${'h'.repeat(70)}${'m'.repeat(900)}${'t'.repeat(30)}`;
    expect(capText(text, 100)).toEqual({
      text: `${'h'.repeat(70)}\n[… 900 chars cut …]\n${'t'.repeat(30)}`,
      cut: 900,
    });
  });

  it('never splits a surrogate pair and accounts for every character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.integer({ min: 10, max: 200 }),
        (text, cap) => {
          const { text: out, cut } = capText(text, cap);
          expect(LONE_SURROGATE.test(out)).toBe(false);
          if (cut === 0) expect(out).toBe(text);
          else expect(out.replace(/\n\[… \d+ chars cut …\]\n/u, '').length).toBe(text.length - cut);
        },
      ),
    );
  });
});
