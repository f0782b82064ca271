import { describe, expect, it } from 'vitest';
import { foldPage, type FoldInput } from './fold-duplicates.js';

const line = (sha256: string, text: string, project = 'demo', level = 'L1'): FoldInput => ({
  kind: 'line',
  project,
  level,
  sha256,
  text,
  fromLine: null,
});

const same = 'The theme loader crashes on an invalid hex colour';

describe('foldPage', () => {
  it('keeps the best-ranked of a group, names the rest with their rank, and refills the page', () => {
    const rows = [
      line('a', same),
      line('b', `${same}.`),
      line('c', 'The cache keeps parsed themes under .cache'),
      line('d', `[bugs] ${same}`, 'demo', 'L2'),
      line('e', 'Uploads fail over 8KB bodies'),
    ];
    const page = foldPage(rows, (r) => r, 3);
    expect(page.map((p) => p.row.sha256)).toEqual(['a', 'c', 'e']);
    expect(page[0]!.folded.map((f) => [f.row.sha256, f.rank, f.reason])).toEqual([
      ['b', 2, 'near_duplicate'],
      ['d', 4, 'near_duplicate'],
    ]);
  });

  it('never folds across projects, nor evidence or reference passages', () => {
    const chunk: FoldInput = { ...line('c', same), kind: 'evidence', level: 'L0' };
    const page = foldPage([line('a', same), line('b', same, 'other'), chunk], (r) => r, 10);
    expect(page.map((p) => [p.row.sha256, p.folded.length])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
    ]);
  });

  it('folds a promoted item into the line it came from whatever its wording', () => {
    const item: FoldInput = {
      kind: 'item',
      project: 'demo',
      level: 'I',
      sha256: 'i',
      text: 'Invalid colours crash hexToRgb',
      fromLine: { sha256: 'a', level: 'L1' },
    };
    const page = foldPage([item, line('a', same)], (r) => r, 10);
    expect(page.map((p) => p.row.sha256)).toEqual(['i']);
    expect(page[0]!.folded.map((f) => f.reason)).toEqual(['promoted_from']);
  });

  it('keeps two curated facts apart that differ in the value they state', () => {
    const item = (sha256: string, text: string): FoldInput => ({
      kind: 'item',
      project: 'demo',
      level: 'I',
      sha256,
      text,
      fromLine: null,
    });
    const page = foldPage(
      [
        item('s', 'Deploy the release to the staging hosts before tagging it'),
        item('c', 'Deploy the release to the canary hosts before tagging it'),
        item('n', 'Do not deploy the release to the staging hosts before tagging it'),
      ],
      (r) => r,
      10,
    );
    expect(page.map((p) => [p.row.sha256, p.folded.length])).toEqual([
      ['s', 0],
      ['c', 0],
      ['n', 0],
    ]);
  });
});
