import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vectorLiteral } from './vector-literal.js';

describe('vectorLiteral', () => {
  it('writes pgvector text input', () => {
    expect(vectorLiteral(Float32Array.from([1, 0, -0.5]))).toBe(
      '[1.00000000,0.00000000,-0.500000000]',
    );
  });

  it('round-trips every finite float32 exactly (what strtof reads back is the embedder float)', () => {
    fc.assert(
      fc.property(
        fc.float32Array({ noNaN: true, noDefaultInfinity: true, minLength: 1, maxLength: 32 }),
        (vector) => {
          const parsed = vectorLiteral(vector)
            .slice(1, -1)
            .split(',')
            .map((part) => Math.fround(Number(part)));
          expect(parsed).toEqual(Array.from(vector, (x) => (x === 0 ? 0 : x)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
