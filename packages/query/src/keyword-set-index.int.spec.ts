import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { seededRandom } from '@mem/core';
import { itemStorePath, openItemStore, type ItemStore } from '@mem/projector-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evidence,
  memory,
  reference,
  run,
  testStore,
  type Payload,
  type TestStore,
} from '../test/store.js';
import { KEYWORD_POSTINGS_BUDGET } from './defaults.js';
import type { Fused } from './fusion.js';
import { annotateMatchedTerms } from './matched-terms.js';
import { keywordTerms } from './keyword-terms.js';
import { recallKeyword, type RecallFilter } from './keyword-recall.js';

/*
 * The keyword leg answers the same over a reachable set's own index (projector-sqlite
 * set-index.ts) as over node_fts alone: on a seeded store of three projects, 240 questions and
 * pasted logs, at the default postings budget and at one that leaves common terms out (scored
 * on the best candidates only), hash to the same hits, scores and left-out terms.
 */

const PROJECTS = ['a', 'b', 'c'];

function corpus(seed: number) {
  const random = seededRandom(seed);
  const vocabulary = Array.from({ length: 400 }, (_, i) => `t${(i * 7919) % 4001}q${i % 13}`);
  const word = () => vocabulary[Math.floor(random() ** 2.5 * vocabulary.length)]!;
  const sentence = (n: number) =>
    Array.from({ length: n }, () => (random() < 0.3 ? 'the' : word())).join(' ');
  return { random, sentence };
}

function payloadsOf(project: string, sentence: (n: number) => string): Payload[] {
  const out: Payload[] = [];
  for (let q = 0; q < 8; q += 1) {
    const runId = `${project}-${q}`;
    out.push(run(runId, 'L1', `q-${q}`));
    const bullets: string[] = [];
    for (let t = 1; t <= 8; t += 1) {
      const said = `${sentence(25)} (${project} ${q} ${t})`;
      out.push(evidence(runId, t, said));
      bullets.push(`- ${sentence(10)}.`);
      if (bullets.length > 5) bullets.shift();
      out.push(memory(runId, 'L1', t, bullets.join('\n'), [said]));
    }
  }
  for (let r = 0; r < 150; r += 1)
    out.push(reference(`docs:${project}.md#${r}`, `${sentence(30)} ${project} passage ${r}.`));
  return out;
}

let store: TestStore;
let plain: ItemStore;
const { random, sentence } = corpus(5);

beforeAll(async () => {
  store = await testStore(Object.fromEntries(PROJECTS.map((p) => [p, payloadsOf(p, sentence)])));
  plain = openItemStore(itemStorePath(join(store.root, '.mem')), { keywordSetIndexes: false });
});
afterAll(() => {
  plain.close();
  store.cleanup();
});

/** 120 questions and 120 pasted logs, each over one project's lines, all projects', or with R. */
function asks(): { terms: string[]; filter: RecallFilter }[] {
  const filters: RecallFilter[] = [
    ...PROJECTS.map((p) => ({ projects: [p], levels: ['L1', 'L2', 'I'] as const })),
    { projects: PROJECTS, levels: ['L1', 'L2', 'I'] as const },
    { projects: ['b'], levels: ['L1', 'R'] as const, includeSuperseded: true },
  ].map((f) => ({ ...f, levels: [...f.levels] }));
  return Array.from({ length: 240 }, (_, i) => ({
    terms: keywordTerms(i % 2 === 0 ? `why did ${sentence(4)} fail` : sentence(60)).terms,
    filter: filters[Math.floor(random() * filters.length)]!,
  }));
}

function hashOf(items: ItemStore, budget: number, questions: ReturnType<typeof asks>): string {
  const hash = createHash('sha256');
  for (const { terms, filter } of questions) {
    const { hits, leftOut } = recallKeyword(items, terms, filter, 50, 'or', budget);
    hash.update(JSON.stringify({ hits, leftOut }));
  }
  return hash.digest('hex');
}

/** The hits as annotateMatchedTerms takes them: each its keyword rank and node. */
function rowsOf({ hits, nodes }: ReturnType<typeof recallKeyword>) {
  return hits.map((hit, i) => ({
    fused: { ranking: { keyword: { ...hit.keyword!, rank: i + 1, bm25: hit.score } } } as Fused,
    node: nodes[i]!,
  }));
}

describe('recallKeyword over set indexes', () => {
  it('gives node_fts answers, hit for hit, float for float', () => {
    const questions = asks();
    const answers = questions.map(({ terms, filter }) =>
      recallKeyword(plain, terms, filter, 50, 'or', 60),
    );
    // The store and the asks exercise both paths: hits, and common terms left out.
    expect(answers.filter((a) => a.hits.length > 0).length).toBeGreaterThan(200);
    expect(answers.filter((a) => a.leftOut.length > 0).length).toBeGreaterThan(50);
    for (const budget of [KEYWORD_POSTINGS_BUDGET, 60]) {
      const expected = hashOf(plain, budget, questions);
      // Twice: the first asks read node_fts, later ones the sets' own indexes.
      expect(hashOf(store.items, budget, questions)).toBe(expected);
      expect(hashOf(store.items, budget, questions)).toBe(expected);
    }
  });

  it('knows the matched terms of its hits as FTS5 matches them, asking FTS5 only about phrases', () => {
    const questions = asks();
    let asked = 0;
    const counted = new Proxy(store.items, {
      get(target, name, receiver) {
        if (name === 'matchedTerms')
          return (matches: readonly string[], ids: readonly number[]) => {
            asked += matches.length;
            return target.matchedTerms(matches, ids);
          };
        return Reflect.get(target, name, receiver) as unknown;
      },
    });
    let phrases = 0;
    for (const [n, { terms, filter }] of questions.entries()) {
      // Every fifth ask also searches two words as one term: a phrase of two FTS5 tokens.
      const asking =
        n % 5 === 0 && terms.length > 1 ? [...terms, `${terms[0]}_${terms[1]}`] : terms;
      if (asking !== terms) phrases += 1;
      const recalled = recallKeyword(counted, asking, filter, 50, 'or', 60);
      const fromFts = rowsOf(recalled);
      annotateMatchedTerms(store.items, asking, fromFts);
      const fromRecall = rowsOf(recalled);
      const before = asked;
      annotateMatchedTerms(counted, asking, fromRecall, recalled.held);
      expect(fromRecall.map((r) => r.fused.ranking.keyword)).toEqual(
        fromFts.map((r) => r.fused.ranking.keyword),
      );
      // FTS5 is asked about the phrase alone, and only when there are hits.
      expect(asked - before).toBe(asking !== terms && recalled.hits.length > 0 ? 1 : 0);
    }
    expect(phrases).toBeGreaterThan(20);
  });
});
