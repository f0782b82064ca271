import { describe, expect, it } from 'vitest';
import { isMemError } from '@mem/core';
import { thrown } from '../../../test/support/thrown.js';
import { parseGoldSet, type GoldFile } from './gold-set.js';
import { memoryLines } from './memory-lines.js';
import {
  compileNoise,
  lineMatches,
  noiseCount,
  poolMultiStepRates,
  poolRates,
  scoreFile,
  summarize,
} from './notes-score.js';

const file: GoldFile = {
  path: 'pi/theme.jsonl',
  kind: 'pi',
  split: 'tuning',
  summary: 'a theme session',
  findings: {
    'bugs-and-root-causes': [
      {
        id: 'hex',
        statement: 'An invalid hex colour crashed hexToRgb; it falls back to the dark theme.',
        keywords: ['hexToRgb', ['fallback', 'fall back', 'dark theme']],
      },
    ],
    'architecture-decisions': [
      {
        id: 'rgb',
        statement: 'Themes use RGB values, not 256-colour indices.',
        keywords: ['rgb', ['256', 'indices']],
      },
    ],
    'open-questions': [],
    synthesis: [],
  },
};
const noise = compileNoise([
  { id: 'let-me', pattern: '^let me\\b' },
  { id: 'table-row', pattern: '^\\|.*\\|$' },
]);

describe('memoryLines', () => {
  it('splits a memory into the lines the vault renders, without bullets or blank lines', () => {
    expect(memoryLines('- one\r\n\n* two\n  3. three\n\n')).toEqual(['one', 'two', 'three']);
  });

  it('gives no lines for an empty memory', () => {
    expect(memoryLines('')).toEqual([]);
  });
});

describe('lineMatches', () => {
  it('needs every keyword, any one of each alternative group, case-insensitively', () => {
    const keywords = ['hexToRgb', ['fallback', 'dark theme']] as const;
    expect(
      lineMatches('Invalid hex color at HEXTORGB: now falls back to the Dark Theme', keywords),
    ).toBe(true);
    expect(lineMatches('Invalid hex color at hexToRgb', keywords)).toBe(false);
    expect(lineMatches('fallback to the dark theme', keywords)).toBe(false);
  });
});

describe('noiseCount', () => {
  it('counts the lines any pattern matches, per pattern', () => {
    expect(
      noiseCount(['Let me check the file:', '| a | b |', 'hexToRgb falls back to dark'], noise),
    ).toEqual({ noisy: 2, by_pattern: { 'let-me': 1, 'table-row': 1 } });
  });
});

describe('scoreFile', () => {
  it('counts a finding in the right note only when the note of its question has the line', () => {
    const score = scoreFile(
      file,
      {
        'architecture-decisions': ['hexToRgb falls back to the dark theme on a bad colour'],
        'bugs-and-root-causes': ['Let me fix it'],
      },
      noise,
    );
    expect(score.findings).toBe(2);
    expect(score.in_note).toBe(0);
    expect(score.anywhere).toBe(1);
    expect(score.recall_in_note).toBe(0);
    expect(score.recall_anywhere).toBe(0.5);
    expect(score.lines).toBe(2);
    expect(score.noise_lines).toBe(1);
    expect(score.noise_share).toBe(0.5);
    expect(score.missed_in_note).toEqual(['hex', 'rgb']);
    expect(score.per_query['bugs-and-root-causes']).toMatchObject({
      findings: 1,
      in_note: 0,
      anywhere: 1,
      lines: 1,
      noise_lines: 1,
    });
  });

  it('scores an empty store as recall 0 and noise 0, never NaN', () => {
    const score = scoreFile(file, {}, noise);
    expect(score).toMatchObject({
      findings: 2,
      in_note: 0,
      anywhere: 0,
      recall_in_note: 0,
      recall_anywhere: 0,
      lines: 0,
      noise_share: 0,
      lines_per_note: 0,
    });
  });

  it('has no recall to measure (null, not NaN) where a file has no findings', () => {
    const empty: GoldFile = {
      ...file,
      findings: {
        'architecture-decisions': [],
        'bugs-and-root-causes': [],
        'open-questions': [],
        synthesis: [],
      },
    };
    const score = scoreFile(empty, { synthesis: ['The project ships themes.'] }, noise);
    expect(score.recall_in_note).toBeNull();
    expect(score.lines_per_note).toBe(1);
  });
});

describe('summarize', () => {
  it('pools findings and lines over files (micro average)', () => {
    const a = scoreFile(
      file,
      { 'bugs-and-root-causes': ['hexToRgb falls back to the dark theme'] },
      noise,
    );
    const b = scoreFile(file, { 'architecture-decisions': ['Let me look'] }, noise);
    expect(summarize([a, b])).toMatchObject({
      files: 2,
      findings: 4,
      in_note: 1,
      recall_in_note: 0.25,
      lines: 2,
      noise_lines: 1,
      noise_share: 0.5,
    });
    expect(summarize([])).toMatchObject({
      files: 0,
      findings: 0,
      recall_in_note: null,
      noise_share: 0,
    });
  });
});

describe('parseGoldSet', () => {
  const valid = {
    version: 1,
    labelled_by: 'a session engineer, by reading',
    transcripts: '.',
    queries: [{ id: 'bugs-and-root-causes', question: 'What broke?' }],
    synthesis: { question: 'What is the state?', exit_gate: true },
    noise: [{ id: 'let-me', pattern: '^let me' }],
    files: [
      {
        path: 'pi/a.jsonl',
        kind: 'pi',
        split: 'tuning',
        summary: 's',
        findings: {
          'bugs-and-root-causes': [{ id: 'x', statement: 's', keywords: ['a', ['b', 'c']] }],
        },
      },
    ],
  };

  it('reads a valid gold set', () => {
    expect(
      parseGoldSet(JSON.stringify(valid), 'g.json').files[0]!.findings['bugs-and-root-causes']![0]!
        .keywords,
    ).toEqual(['a', ['b', 'c']]);
  });

  it.each([
    ['not JSON', '{', 'g.json'],
    [
      'an unknown split',
      JSON.stringify({ ...valid, files: [{ ...valid.files[0], split: 'train' }] }),
      'files[0].split',
    ],
    [
      'a finding under a question the set does not ask',
      JSON.stringify({ ...valid, files: [{ ...valid.files[0], findings: { 'who-knows': [] } }] }),
      'who-knows',
    ],
    [
      'a noise pattern that is no regex',
      JSON.stringify({ ...valid, noise: [{ id: 'bad', pattern: '(' }] }),
      'noise[0].pattern',
    ],
    [
      'a duplicate finding id',
      JSON.stringify({
        ...valid,
        files: [valid.files[0], { ...valid.files[0], path: 'pi/b.jsonl' }],
      }),
      'x',
    ],
  ])('refuses %s with CONFIG_INVALID naming the place', (_what, text, named) => {
    const error = thrown(() => parseGoldSet(text, 'g.json'));
    if (!isMemError(error)) throw new Error(`expected a MemError, got ${String(error)}`);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(named);
  });
});

describe('poolRates', () => {
  it('sums chunks used and seen per query over files before dividing, so a one-chunk file weighs one chunk', () => {
    const pooled = poolRates([
      // A one-chunk file: 100 % alone.
      {
        runs: {
          decisions: { chunks_seen: 1, chunks_used: 1 },
          bugs: { chunks_seen: 1, chunks_used: 0 },
        },
      },
      {
        runs: {
          decisions: { chunks_seen: 40, chunks_used: 10 },
          bugs: { chunks_seen: 40, chunks_used: 12 },
        },
      },
      {
        runs: {
          decisions: { chunks_seen: 19, chunks_used: 3 },
          synthesis: { chunks_seen: 0, chunks_used: 0 },
        },
      },
    ]);
    expect(pooled).toEqual({
      bugs: { chunks_seen: 41, chunks_used: 12, update_rate: 0.2927 },
      decisions: { chunks_seen: 60, chunks_used: 14, update_rate: 0.2333 },
      // Nothing seen is a rate of 0, not NaN.
      synthesis: { chunks_seen: 0, chunks_used: 0, update_rate: 0 },
    });
    // Not the mean of the per-file rates (1, 0.25, 0.158 → 0.47).
    expect(pooled.decisions!.update_rate).not.toBeCloseTo((1 + 10 / 40 + 3 / 19) / 3, 2);
  });

  it('is empty for no files', () => {
    expect(poolRates([])).toEqual({});
  });
});

describe('poolMultiStepRates', () => {
  it('pools only the runs that saw more than one step, per query', () => {
    const files = [
      // A synthesis from empty over one step: its first fill, 100 % by construction.
      {
        runs: {
          synthesis: { chunks_seen: 1, chunks_used: 1 },
          bugs: { chunks_seen: 6, chunks_used: 2 },
        },
      },
      {
        runs: {
          synthesis: { chunks_seen: 6, chunks_used: 1 },
          bugs: { chunks_seen: 1, chunks_used: 0 },
        },
      },
      {
        runs: {
          synthesis: { chunks_seen: 3, chunks_used: 1 },
          bugs: { chunks_seen: 0, chunks_used: 0 },
        },
      },
    ];
    expect(poolMultiStepRates(files)).toEqual({
      bugs: { chunks_seen: 6, chunks_used: 2, update_rate: 0.3333 },
      synthesis: { chunks_seen: 9, chunks_used: 2, update_rate: 0.2222 },
    });
    // Over every file the one-step run counts: 3 of 10.
    expect(poolRates(files).synthesis!.update_rate).toBe(0.3);
    // A query no file ran for more than one step has no rate at all, not 0.
    expect(poolMultiStepRates([files[0]!]).synthesis).toBeUndefined();
  });
});
