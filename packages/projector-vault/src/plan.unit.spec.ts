import { describe, expect, it } from 'vitest';
import { planVaultChanges, type ExistingFile } from './plan.js';

describe('planVaultChanges', () => {
  it('sorts every list and sorts files into new / changed / removed / unchanged', () => {
    const desired = new Map([
      ['p/b.md', 'B'],
      ['p/a.md', 'A'],
      ['p/c.md', 'C2'],
      ['p/d.md', 'D'],
    ]);
    const existing = new Map<string, ExistingFile>([
      ['p/d.md', 'D'],
      ['p/c.md', 'C1'],
      ['p/z.md', 'Z'],
      ['p/y.md', 'Y'],
    ]);
    expect(planVaultChanges(desired, existing)).toEqual({
      new: ['p/a.md', 'p/b.md'],
      changed: ['p/c.md'],
      removed: ['p/y.md', 'p/z.md'],
      unchanged: ['p/d.md'],
      unreadable: [],
    });
  });

  it('reports an unreadable file and never plans to delete or overwrite it', () => {
    const existing = new Map<string, ExistingFile>([
      ['p/gone.md', { unreadable: 'EACCES' }],
      ['p/kept.md', { unreadable: 'EISDIR' }],
    ]);
    const plan = planVaultChanges(new Map([['p/kept.md', 'K']]), existing);
    expect(plan).toEqual({
      new: [],
      changed: [],
      removed: [],
      unchanged: [],
      unreadable: ['p/gone.md', 'p/kept.md'],
    });
  });

  it('removes only what it was shown as existing', () => {
    expect(planVaultChanges(new Map(), new Map()).removed).toEqual([]);
  });
});
