import { describe, expect, it } from 'vitest';
import { UuidSet } from './uuid-set.js';

describe('UuidSet', () => {
  it('remembers canonical uuids (any case) and other ids', () => {
    const set = new UuidSet();
    expect(set.seenBefore('7d48cbd2-6615-4dd8-87f6-38f12b8167d6')).toBe(false);
    expect(set.seenBefore('7D48CBD2-6615-4DD8-87F6-38F12B8167D6')).toBe(true);
    expect(set.seenBefore('7d48cbd2-6615-4dd8-87f6-38f12b8167d7')).toBe(false);
    expect(set.seenBefore('a1b2c3d4')).toBe(false);
    expect(set.seenBefore('a1b2c3d4')).toBe(true);
  });
});
