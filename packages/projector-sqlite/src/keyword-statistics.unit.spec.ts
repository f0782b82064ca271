import { describe, expect, it } from 'vitest';
import { docsizeTokens, varints } from './keyword-statistics.js';

describe('docsizeTokens', () => {
  it('reads the first varint of a docsize record', () => {
    expect(docsizeTokens(Uint8Array.from([0x05]))).toBe(5);
    expect(docsizeTokens(Uint8Array.from([0x7f]))).toBe(127);
    expect(docsizeTokens(Uint8Array.from([0x81, 0x00]))).toBe(128);
    expect(docsizeTokens(Uint8Array.from([0x82, 0xac, 0x07]))).toBe(2 * 128 * 128 + 0x2c * 128 + 7);
  });
});

describe('varints', () => {
  it('reads every varint of a record in order, a ninth byte whole', () => {
    // FTS5's averages record: rows, then tokens per column.
    expect(varints(Uint8Array.from([0x86, 0x8b, 0x28, 0x81, 0x00, 0x05]))).toEqual([
      6 * 128 * 128 + 0x0b * 128 + 0x28,
      128,
      5,
    ]);
    const nine = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x05];
    expect(varints(Uint8Array.from([...nine, 0x01]))).toEqual([256 + 5, 1]);
  });
});
