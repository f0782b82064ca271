import { describe, expect, it } from 'vitest';
import { skillScopeOf, skillVisible } from './skill-scope.js';

describe('skillScopeOf', () => {
  it('reads project (one or a list) and generated_from (its first segment) into one set', () => {
    expect(skillScopeOf({ name: 'x' })).toEqual({ kind: 'unscoped' });
    expect(skillScopeOf({ project: 'alpha' })).toEqual({ kind: 'projects', projects: ['alpha'] });
    expect(
      skillScopeOf({ project: ['beta', 'alpha'], generated_from: 'gamma/root-causes' }),
    ).toEqual({ kind: 'projects', projects: ['alpha', 'beta', 'gamma'] });
    expect(skillScopeOf({ generated_from: 'beta' })).toEqual({
      kind: 'projects',
      projects: ['beta'],
    });
  });

  it('is malformed, never unscoped, for a scope field of the wrong shape', () => {
    for (const frontmatter of [
      { project: 7 },
      { project: {} },
      { project: '' },
      { project: [] },
      { project: null },
      { project: ['alpha', 7] },
      { generated_from: 7 },
      { generated_from: '/x' },
      { project: 'Alpha' },
      // A memory's sha names no project: alone it scopes to nothing readable.
      { generated_from: 'a'.repeat(64) },
    ]) {
      expect(skillScopeOf(frontmatter), JSON.stringify(frontmatter)).toEqual({ kind: 'malformed' });
    }
  });
});

describe('skillScopeOf, a drafted skill', () => {
  it('reads a generated_from sha as no project: the scope is the project beside it', () => {
    expect(skillScopeOf({ generated_from: 'a'.repeat(64), project: 'alpha' })).toEqual({
      kind: 'projects',
      projects: ['alpha'],
    });
  });
});

describe('skillVisible', () => {
  it('needs every scoped project reached; malformed is visible to nobody', () => {
    const alphaOnly = (p: string) => p === 'alpha';
    expect(skillVisible({ kind: 'unscoped' }, alphaOnly)).toBe(true);
    expect(skillVisible({ kind: 'projects', projects: ['alpha'] }, alphaOnly)).toBe(true);
    expect(skillVisible({ kind: 'projects', projects: ['alpha', 'beta'] }, alphaOnly)).toBe(false);
    expect(skillVisible({ kind: 'malformed' }, () => true)).toBe(false);
  });
});
