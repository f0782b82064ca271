import { describe, expect, it, vi } from 'vitest';
import * as core from '@mem/core';
import {
  FOLD_PAIRS_KEPT,
  FOLD_TOKENS_KEPT,
  foldPage,
  tokensOf,
  type FoldInput,
} from './fold-duplicates.js';

/*
 * Issue 15 target 3: the fold tokenises a text once, and compares two texts once, not on every
 * query that folds them. Tokens and comparison are core's; the count of calls says how often a
 * text was tokenised and a pair compared.
 */
vi.mock('@mem/core', async (actual) => {
  const real = await actual<typeof core>();
  return {
    ...real,
    lineTokens: vi.fn(real.lineTokens),
    nearDuplicateTokens: vi.fn(real.nearDuplicateTokens),
  };
});
const lineTokens = vi.mocked(core.lineTokens);
const nearDuplicateTokens = vi.mocked(core.nearDuplicateTokens);

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
    nearDuplicateTokens.mockClear();
    const first = foldPage(rows, (r) => r, 2);
    expect(lineTokens).toHaveBeenCalledTimes(3);
    // b with a (folds), c with a; the evidence chunk is compared with nothing.
    expect(nearDuplicateTokens).toHaveBeenCalledTimes(2);
    const second = foldPage(rows, (r) => r, 2);
    expect(lineTokens).toHaveBeenCalledTimes(3);
    expect(nearDuplicateTokens).toHaveBeenCalledTimes(2);
    expect(second).toEqual(first);
    expect(first.map((p) => [p.row.sha256, p.folded.map((f) => f.row.sha256)])).toEqual([
      ['a', ['b']],
      ['c', []],
    ]);
  });

  it('drops every kept text and pair when the store or its change mark moves', () => {
    const rows = [
      line('a', 'A forgotten line about the staging database password rotation'),
      line('b', 'A forgotten line about the staging database password rotation.'),
    ];
    const store = {};
    foldPage(rows, (r) => r, 1, { store, mark: 1 });
    lineTokens.mockClear();
    nearDuplicateTokens.mockClear();
    foldPage(rows, (r) => r, 1, { store, mark: 1 });
    expect(lineTokens).toHaveBeenCalledTimes(0);
    expect(nearDuplicateTokens).toHaveBeenCalledTimes(0);
    // Another connection committed (a tombstone, say): nothing kept is read again.
    foldPage(rows, (r) => r, 1, { store, mark: 2 });
    expect(lineTokens).toHaveBeenCalledTimes(2);
    expect(nearDuplicateTokens).toHaveBeenCalledTimes(1);
    foldPage(rows, (r) => r, 1, { store: {}, mark: 2 });
    expect(lineTokens).toHaveBeenCalledTimes(4);
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

  it('keeps at most FOLD_PAIRS_KEPT compared pairs, then compares afresh', () => {
    const held = line('a', 'The theme loader crashes on an invalid hex colour');
    const pair = [held, line('b', 'The theme loader crashes on an invalid hex colour.')];
    foldPage(pair, (r) => r, 1);
    nearDuplicateTokens.mockClear();
    foldPage(pair, (r) => r, 1);
    expect(nearDuplicateTokens).toHaveBeenCalledTimes(0);
    for (let i = 0; i < FOLD_PAIRS_KEPT; i += 1)
      foldPage([held, line(`x${i}`, `an unrelated line number ${i}`)], (r) => r, 1);
    nearDuplicateTokens.mockClear();
    expect(foldPage(pair, (r) => r, 1)[0]!.folded.map((f) => f.row.sha256)).toEqual(['b']);
    expect(nearDuplicateTokens).toHaveBeenCalledTimes(1);
  });
});
