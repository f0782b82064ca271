import { describe, expect, it, vi } from 'vitest';
import * as core from '@mem/core';
import { FOLD_TOKENS_KEPT, foldPage, tokensOf, type FoldInput } from './fold-duplicates.js';

/*
 * Issue 15 target 3: the fold tokenises a text once, not on every query that folds it. The
 * near-duplicate tokens are core's; the count of calls says how often a text was tokenised.
 */
vi.mock('@mem/core', async (actual) => {
  const real = await actual<typeof core>();
  return { ...real, lineTokens: vi.fn(real.lineTokens) };
});
const lineTokens = vi.mocked(core.lineTokens);

const line = (sha256: string, text: string): FoldInput => ({
  kind: 'line',
  project: 'demo',
  level: 'L1',
  sha256,
  text,
  fromLine: null,
});

describe('the fold tokens a text once', () => {
  it('folds the same page on a second query without tokenising its texts again', () => {
    const rows = [
      line('a', 'The theme loader crashes on an invalid hex colour'),
      line('b', 'The theme loader crashes on an invalid hex colour.'),
      line('c', 'The cache keeps parsed themes under .cache'),
      { ...line('d', 'an evidence chunk is never folded'), kind: 'evidence', level: 'L0' },
    ];
    lineTokens.mockClear();
    const first = foldPage(rows, (r) => r, 2);
    expect(lineTokens).toHaveBeenCalledTimes(3);
    const second = foldPage(rows, (r) => r, 2);
    expect(lineTokens).toHaveBeenCalledTimes(3);
    expect(second).toEqual(first);
    expect(first.map((p) => [p.row.sha256, p.folded.map((f) => f.row.sha256)])).toEqual([
      ['a', ['b']],
      ['c', []],
    ]);
  });

  it('keeps at most FOLD_TOKENS_KEPT texts, the oldest leaving first', () => {
    const oldest = 'the first text of many kept for the fold';
    tokensOf(oldest);
    for (let i = 0; i < FOLD_TOKENS_KEPT; i += 1) tokensOf(`kept text number ${i}`);
    const newest = `kept text number ${FOLD_TOKENS_KEPT - 1}`;
    lineTokens.mockClear();
    expect(tokensOf(newest)).toEqual(
      new Set(['kept', 'text', 'number', `${FOLD_TOKENS_KEPT - 1}`]),
    );
    expect(lineTokens).toHaveBeenCalledTimes(0);
    expect(tokensOf(oldest)).toEqual(
      new Set(['the', 'first', 'text', 'many', 'kept', 'for', 'fold']),
    );
    expect(lineTokens).toHaveBeenCalledTimes(1);
  });
});
