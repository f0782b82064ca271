import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { queryOutput } from './query-output.js';
import { queryText } from './query-text.js';

type Answer = z.infer<typeof queryOutput>;
type Hit = Answer['results'][number];

/** A hit with only what the text reads; `floor`: the signals whose floor it clears. */
const hit = (text: string, floor: string[], item: Partial<NonNullable<Hit['item']>> | null) =>
  ({
    kind: item ? 'item' : 'line',
    item: item
      ? {
          id: 'it-0123456789ab',
          type: 'fact',
          status: null,
          attention: 'active',
          pinned: false,
          source_uri: null,
          from_line: null,
          ...item,
        }
      : null,
    level: item ? 'I' : 'L1',
    sha256: 'a'.repeat(64),
    project: 'demo',
    text,
    source: null,
    score: 0.01,
    tier: 'memory',
    ranking: {
      keyword: floor.includes('keyword') ? { rank: 1 } : null,
      vector_text: { rank: 2, similarity: 0.1 },
      vector_symptom: null,
      rerank: null,
      floor_passed_by: floor,
    },
    note: null,
    parents: [],
    corrected_by: null,
    superseded_by: null,
    added_by: null,
  }) as unknown as Hit;

const answer = (results: Hit[]) =>
  ({
    results,
    abstained: false,
    recall: { projects: ['demo'], levels: ['L1', 'I'], vector: 'used', errors: [] },
    freshness_warnings: [],
  }) as unknown as Answer;

describe('mem query text (the stop-32 walk)', () => {
  it("shows an item hit's cited record and the line it was promoted from", () => {
    const text = queryText(
      answer([
        hit('Deploys use helm', ['keyword'], {
          source_uri: 'docs/deploy.md',
          from_line: { sha256: 'b'.repeat(64), level: 'L1', note: 'demo/infra.md' },
        }),
      ]),
    );
    expect(text).toContain('   cites docs/deploy.md');
    expect(text).toContain(`   promoted from L1 line ${'b'.repeat(12)} in demo/infra.md`);
  });

  it('counts the hits that clear the floor and sets the weak ones apart under a rule line', () => {
    const text = queryText(
      answer([hit('a match', ['keyword'], null), hit('weak', [], null), hit('weaker', [], {})]),
    ).split('\n');
    expect(text[0]).toBe('3 results in demo at L1, I; 1 clears the relevance floor, 2 below it');
    const rule = text.indexOf('-- below the relevance floor: weak matches, not answers --');
    expect(rule).toBeGreaterThan(text.findIndex((l) => l.includes('a match')));
    expect(rule).toBeLessThan(text.indexOf('   weak'));
    expect(text.filter((l) => l.startsWith('-- below'))).toHaveLength(1);
    const clean = queryText(answer([hit('a match', ['keyword'], null)]));
    expect(clean.split('\n')[0]).toBe('1 result in demo at L1, I');
    expect(clean).not.toContain('-- below');
  });
});
