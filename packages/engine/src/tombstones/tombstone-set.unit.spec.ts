import { describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { termHashes } from './reword.js';
import { TombstoneSet } from './tombstone-set.js';

const FORGOTTEN =
  'CI flake: pg container raced its volume mount; fixed with a pg_isready readiness probe.';

function tombstones(): TombstoneSet {
  const set = new TombstoneSet();
  set.add({
    target: contentSha256(FORGOTTEN),
    seq: 7,
    reason: 'reverted',
    refuses: [{ sha256: contentSha256(FORGOTTEN), terms: termHashes(FORGOTTEN) }],
  });
  return set;
}

describe('TombstoneSet', () => {
  it('refuses the exact text in any spacing or case, naming the tombstone', () => {
    expect(tombstones().match(`  ${FORGOTTEN.toUpperCase()} `)).toEqual({
      tombstone: contentSha256(FORGOTTEN),
      seq: 7,
      reason: 'reverted',
      match: 'exact',
    });
  });

  it.each([
    'The pg container raced the volume mount in CI; a pg_isready probe fixed the flake.',
    'Fixed the CI flake (pg container racing its volume mount) with a readiness probe on pg_isready, see PR 12.',
  ])('refuses a rewording: %s', (text) => {
    expect(tombstones().match(text)?.match).toBe('reword');
  });

  it.each([
    'Deploys run from the main branch only, after review.',
    'The pg container image is pinned to 16.2.',
  ])('lets an unrelated line through: %s', (text) => {
    expect(tombstones().match(text)).toBeNull();
  });

  it('stores hashes only: no term of the forgotten text appears in its term list', () => {
    const terms = termHashes(FORGOTTEN).join(' ');
    for (const word of ['container', 'volume', 'pg_isready', 'probe'])
      expect(terms).not.toContain(word);
  });
});
