import { describe, expect, it } from 'vitest';
import { resolveRequest } from './request.js';

describe('resolveRequest', () => {
  it('defaults: every project, levels L1, L2 and I (curated items), 10 results, excerpt citations (as every surface), no folding unless asked (mem query asks)', () => {
    expect(resolveRequest({ text: 'kong' })).toEqual({
      text: 'kong',
      projects: null,
      levels: ['L1', 'L2', 'I'],
      limit: 10,
      citations: 'excerpt',
      includeSuperseded: false,
      fold: false,
    });
  });

  it('sorts and dedupes projects and levels', () => {
    expect(
      resolveRequest({ text: 'x', projects: ['b', 'a', 'b'], levels: ['R', 'L1', 'R'], limit: 3 }),
    ).toMatchObject({ projects: ['a', 'b'], levels: ['L1', 'R'], limit: 3 });
  });
});
