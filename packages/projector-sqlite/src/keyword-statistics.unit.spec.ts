import { describe, expect, it } from 'vitest';
import { docsizeTokens } from './keyword-statistics.js';

describe('docsizeTokens', () => {
  it('reads the first varint of a docsize record', () => {
    expect(docsizeTokens(Uint8Array.from([0x05]))).toBe(5);
    expect(docsizeTokens(Uint8Array.from([0x7f]))).toBe(127);
    expect(docsizeTokens(Uint8Array.from([0x81, 0x00]))).toBe(128);
    expect(docsizeTokens(Uint8Array.from([0x82, 0xac, 0x07]))).toBe(2 * 128 * 128 + 0x2c * 128 + 7);
  });
});
