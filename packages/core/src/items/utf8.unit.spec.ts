import { describe, expect, it } from 'vitest';
import { truncateUtf8, utf8Bytes } from './utf8.js';
import { orientBudgetSchema, DEFAULT_ORIENT_BUDGET } from './orient-budget.js';

/** True when `text` survives a UTF-8 round trip unchanged: no lone surrogate, no half sequence. */
const valid = (text: string) =>
  new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(text)) === text;

describe('truncateUtf8', () => {
  it('counts bytes, not characters: CJK is 3 bytes a character, an emoji 4', () => {
    expect(utf8Bytes('テーマ')).toBe(9);
    expect(utf8Bytes('🧵')).toBe(4);
    expect(utf8Bytes('👨‍👩‍👧')).toBe(18);
  });

  it('counts what TextEncoder writes, a lone surrogate as its 3-byte replacement', () => {
    const encoder = new TextEncoder();
    for (const text of ['', 'abc', 'テーマ', '👨‍👩‍👧‍👦', '\ud800', 'a\udc00b', 'x\ud83d', '\ufffd'])
      expect(utf8Bytes(text)).toBe(encoder.encode(text).length);
  });

  it('never splits a CJK character, whatever the cut', () => {
    const text = 'テーマローダーの移行は来週から始まる';
    for (let max = 0; max <= utf8Bytes(text) + 2; max++) {
      const cut = truncateUtf8(text, max);
      expect(valid(cut)).toBe(true);
      expect(utf8Bytes(cut)).toBeLessThanOrEqual(max);
      if (max >= utf8Bytes(text)) expect(cut).toBe(text);
      else if (cut !== '') expect(cut.endsWith('…')).toBe(true);
    }
  });

  it('never splits an emoji, a ZWJ family or a flag', () => {
    const text = 'ship 🚀 with 👨‍👩‍👧 and 🇯🇵 today';
    for (let max = 0; max <= utf8Bytes(text); max++) {
      const cut = truncateUtf8(text, max);
      expect(valid(cut)).toBe(true);
      expect(utf8Bytes(cut)).toBeLessThanOrEqual(max);
      const body = cut.replace(/…$/, '');
      expect(text.startsWith(body)).toBe(true);
      // A cut lands on a grapheme boundary: never inside the family or the flag.
      for (const whole of ['👨‍👩‍👧', '🇯🇵'])
        for (let k = 1; k < whole.length; k++)
          if (body.endsWith(whole.slice(0, k))) expect(body.endsWith(whole)).toBe(false);
    }
    expect(truncateUtf8(text, 12)).toBe('ship 🚀…');
  });
});

describe('MEM_ORIENT_BUDGET', () => {
  it('parses section=bytes pairs over the defaults, and names what is wrong', () => {
    expect(orientBudgetSchema.parse('facts=300')).toEqual({ ...DEFAULT_ORIENT_BUDGET, facts: 300 });
    expect(orientBudgetSchema.safeParse('fact=300').error?.issues[0]?.message).toContain(
      'sections',
    );
    expect(orientBudgetSchema.safeParse('facts=12').error?.issues[0]?.message).toContain('facts');
    expect(orientBudgetSchema.safeParse('facts=300,facts=400').success).toBe(false);
  });
});
