import { describe, expect, it } from 'vitest';
import { seededRandom } from '@mem/core';
import { cosineDistances } from './vector-snapshot.js';

const DIMS = 768;

/** pgvector's `<=>` as vector-snapshot.ts documents it, summed over every dimension. */
function reference(a: Float32Array, rows: { vector: Float32Array }[]): number[] {
  const f = Math.fround;
  const sumOfSquares = (v: Float32Array) => {
    let sum = 0;
    for (let i = 0; i < v.length; i++) sum = f(sum + f(v[i]! * v[i]!));
    return sum;
  };
  const aNorm = sumOfSquares(a);
  return rows.map(({ vector }) => {
    let dot = 0;
    for (let i = 0; i < a.length; i++) dot = f(dot + f(a[i]! * vector[i]!));
    let similarity = dot / Math.sqrt(aNorm * sumOfSquares(vector));
    if (similarity > 1) similarity = 1;
    else if (similarity < -1) similarity = -1;
    return 1 - similarity;
  });
}

function vectorOf(random: () => number, zeroShare: number): Float32Array {
  const v = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) {
    const r = random();
    // A zero dimension is sometimes -0: it must count as zero all the same.
    v[i] =
      r < zeroShare ? (random() < 0.5 ? -0 : 0) : (random() - 0.5) * 2 * 10 ** (random() * 6 - 3);
  }
  if (v.every((x) => x === 0)) v[0] = 1;
  return v;
}

function rowsOf(random: () => number, n: number, zeroShare: number) {
  return Array.from({ length: n }, (_, k) => {
    const vector = vectorOf(random, zeroShare);
    let norm = 0;
    for (let i = 0; i < DIMS; i++) norm = Math.fround(norm + Math.fround(vector[i]! * vector[i]!));
    return { level: 'L1' as const, sha256: String(k), vector, norm };
  });
}

describe('cosineDistances', () => {
  it('gives the same bits whether a query vector is summed densely or over its non-zero dimensions', () => {
    const random = seededRandom(28);
    for (const queryZeros of [0, 0.3, 0.85, 0.99]) {
      for (const rowZeros of [0, 0.85]) {
        const rows = rowsOf(random, 37, rowZeros);
        for (let q = 0; q < 8; q++) {
          const a = vectorOf(random, queryZeros);
          let aNorm = 0;
          for (let i = 0; i < DIMS; i++) aNorm = Math.fround(aNorm + Math.fround(a[i]! * a[i]!));
          const got = cosineDistances(a, aNorm, rows);
          const want = reference(a, rows);
          expect(got.length).toBe(want.length);
          for (let k = 0; k < want.length; k++) expect(Object.is(got[k], want[k])).toBe(true);
        }
      }
    }
  });
});
