import { describe, expect, it } from 'vitest';
import { contentSha256, isMemError } from '@mem/core';
import type { LedgerTarget, MemoryLedger } from './memory-ledger.js';
import { resolveRef } from './memory-ref.js';

function ledgerOf(targets: LedgerTarget[]): MemoryLedger {
  return {
    targets: new Map(targets.map((t) => [t.sha256, t])),
    forgotten: new Map(),
    tombstoneOf: new Map(),
    superseded: new Map(),
    mutations: [],
  };
}

const line = (sha: string, text: string): LedgerTarget => ({
  sha256: sha,
  kind: 'line',
  text,
  lines: [{ sha256: sha, text }],
});

function codeOf(fn: () => unknown): { code: string; details: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    if (isMemError(error)) return { code: error.code, details: { ...error.details } };
  }
  throw new Error('expected a MemError');
}

describe('resolveRef', () => {
  const a = 'abcdef0' + '1'.repeat(57);
  const b = 'abcdef9' + '2'.repeat(57);
  const ledger = ledgerOf([
    line(a, 'first'),
    line(b, 'second'),
    line(contentSha256('Exact text.'), 'Exact text.'),
  ]);

  it('resolves a unique prefix and the exact text', () => {
    expect(resolveRef(ledger, 'p', 'abcdef01').sha256).toBe(a);
    expect(resolveRef(ledger, 'p', '  exact   TEXT. ').sha256).toBe(contentSha256('Exact text.'));
  });

  it('an ambiguous prefix is AMBIGUOUS_REF listing every candidate by sha and kind', () => {
    const refused = codeOf(() => resolveRef(ledger, 'p', 'abcdef'));
    expect(refused.code).toBe('AMBIGUOUS_REF');
    expect(refused.details['candidates']).toEqual([
      { sha256: a, kind: 'line' },
      { sha256: b, kind: 'line' },
    ]);
  });

  it('an unknown ref is NOT_FOUND', () => {
    expect(codeOf(() => resolveRef(ledger, 'p', 'nothing like it')).code).toBe('NOT_FOUND');
  });
});
