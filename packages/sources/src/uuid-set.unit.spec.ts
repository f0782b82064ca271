import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { seededRandom } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { UuidSet } from './uuid-set.js';

/** Canonical (v4-shaped) uuids from a seeded generator, made one at a time. */
function* uuidStream(n: number, seed: number): Generator<string> {
  const rng = seededRandom(seed);
  const hex = (digits: number) =>
    Array.from({ length: digits }, () => Math.floor(rng() * 16).toString(16)).join('');
  for (let i = 0; i < n; i++) yield `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

const uuids = (n: number, seed: number) => [...uuidStream(n, seed)];

describe('UuidSet', () => {
  it('remembers canonical uuids (any case) and other ids', () => {
    const set = new UuidSet();
    expect(set.seenBefore('7d48cbd2-6615-4dd8-87f6-38f12b8167d6')).toBe(false);
    expect(set.seenBefore('7D48CBD2-6615-4DD8-87F6-38F12B8167D6')).toBe(true);
    expect(set.seenBefore('7d48cbd2-6615-4dd8-87f6-38f12b8167d7')).toBe(false);
    expect(set.seenBefore('a1b2c3d4')).toBe(false);
    expect(set.seenBefore('a1b2c3d4')).toBe(true);
  });

  it('keeps every uuid across its growth and tells new ones apart', () => {
    const set = new UuidSet();
    const first = uuids(50_000, 1);
    expect(first.filter((id) => set.seenBefore(id))).toEqual([]);
    expect(first.every((id) => set.seenBefore(id))).toBe(true);
    expect(uuids(50_000, 2).filter((id) => set.seenBefore(id))).toEqual([]);
    // At most half full: 100 k uuids in 2^18 slots of 8 bytes.
    expect(set.tableBytes).toBe(2 ** 18 * 8);
  });

  it("holds a transcript's uuids outside V8's heap, so the heap does not grow with them", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const set = new UuidSet();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const id of uuidStream(200_000, 3)) set.seenBefore(id);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // A Set of 52-bit heap numbers held ~40 bytes a uuid here (8 MB); the table is an ArrayBuffer.
    expect(grown).toBeLessThan(1024 * 1024);
    expect(set.seenBefore(uuids(1, 3)[0]!)).toBe(true);
  });
});
