import type { ReachableSet } from '@mem/projector-sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitMemoryLines } from '@mem/core';
import { fakeEmbedder, fakeVectorRecall } from '../test/fake-vectors.js';
import {
  evidence,
  fillerNotes,
  memory,
  reference,
  run,
  sha,
  type TestStore,
  testStore,
  tombstone,
} from '../test/store.js';
import { queryMemory } from './query-memory.js';
import { INSUFFICIENT_RECALL } from './result.js';

const E_KONG =
  'POST /upload returned 413 Request Entity Too Large for bodies over 10KB. Kong buffered the request body; setting proxy-body-size: 0 on the ingress fixed it.';
const E_CI =
  'Root cause of the CI flake: the pg container started before the volume mount; adding a readiness probe fixed it.';
const M_KONG =
  '- Requests over 10KB failed with 413: Kong buffered the body; fixed with proxy-body-size: 0.';
const M_BOTH = `${M_KONG}\n- CI flake: pg started before its volume mount; fixed by a readiness probe.`;
const L2 =
  'Infrastructure: two root causes are known (Kong body buffering, a pg startup race); both are fixed.';
const E_PROSE =
  'The upload proxy held whole bodies in memory before passing them on; lifting its cap let big uploads through.';
const M_PROSE =
  '- Big uploads broke because the proxy held bodies in memory; lifting its cap fixed it.';
const E_SECRET = 'The staging token was pasted into the hermes-google chat; it has been rotated.';
const M_SECRET = '- The hermes-google staging token leaked once and was rotated.';
const M_GONE = '- Grafana dashboards are exported nightly to the ops bucket.';
/** Longer than an excerpt, in characters outside the BMP: an excerpt cuts code points, never a surrogate pair. */
const E_LONG = `zeppelin hangar log: ${'🚀'.repeat(500)}`;
const M_LONG = '- The zeppelin hangar log is all rockets.';
const OTHER = '- Kong in the other project buffers request bodies over 10KB as well.';

/** R passages that match "kong body 10KB 413" better than any memory does. */
const FLOOD = Array.from({ length: 120 }, (_, i) =>
  reference(`docs:kong.md#${i}`, `Kong body 413 10KB: Kong buffers the body (section ${i}).`),
);

let store: TestStore;

beforeAll(async () => {
  store = await testStore({
    demo: [
      run('r-infra', 'L1', 'infra-root-causes'),
      evidence('r-infra', 1, E_KONG),
      memory('r-infra', 'L1', 1, M_KONG, [E_KONG]),
      evidence('r-infra', 2, E_CI),
      memory('r-infra', 'L1', 2, M_BOTH, [E_KONG, E_CI]),
      run('r-syn', 'L2', null),
      memory('r-syn', 'L2', 1, L2, [M_BOTH]),
      run('r-uploads', 'L1', 'uploads'),
      evidence('r-uploads', 1, E_PROSE),
      memory('r-uploads', 'L1', 1, M_PROSE, [E_PROSE], '413 Request Entity Too Large'),
      run('r-secrets', 'L1', 'secrets'),
      evidence('r-secrets', 1, E_SECRET),
      memory('r-secrets', 'L1', 1, M_SECRET, [E_SECRET]),
      tombstone(E_SECRET, 'contains a token'),
      run('r-ops', 'L1', 'ops'),
      evidence('r-ops', 1, M_GONE.slice(2)),
      memory('r-ops', 'L1', 1, M_GONE, [M_GONE.slice(2)]),
      tombstone(M_GONE, 'wrong'),
      run('r-long', 'L1', 'hangar'),
      evidence('r-long', 1, E_LONG),
      memory('r-long', 'L1', 1, M_LONG, [E_LONG]),
      ...fillerNotes(12),
      ...FLOOD,
    ],
    other: [
      run('r-o', 'L1', 'infra'),
      evidence('r-o', 1, OTHER.slice(2)),
      memory('r-o', 'L1', 1, OTHER, [OTHER.slice(2)]),
    ],
  });
});
afterAll(() => store.cleanup());

const shas = (result: Awaited<ReturnType<typeof queryMemory>>) =>
  result.results.map((r) => r.sha256);
/** The sha of a one-line memory's line (its list marker is layout): an L1/L2 answer is a line (issue 11 §3). */
const line = (memoryText: string) => sha(memoryText.replace(/^- /, ''));

describe('queryMemory: filter-then-recall', () => {
  it('a flood of R nodes matching better does not push an L1 answer out of the top k when R is not asked for', async () => {
    const result = await queryMemory(
      { text: 'kong body 10KB 413', projects: ['demo'], limit: 1 },
      { items: store.items },
    );
    expect(shas(result)).toEqual([line(M_KONG)]);
    // The same filters sit in the item store's FTS5 statement: a limit of 1 still finds the L1.
    const direct = store.items.keywordRecall('"kong" OR "body"', {
      projects: ['demo'],
      levels: ['L1'],
      limit: 1,
    });
    expect(direct.map((h) => h.node.sha256)).toEqual([sha(M_BOTH)]);
  });

  it('R comes back only when asked for', async () => {
    const withR = await queryMemory(
      { text: 'kong body 10KB 413', projects: ['demo'], levels: ['L1', 'L2', 'R'], limit: 50 },
      { items: store.items },
    );
    expect(withR.results.filter((r) => r.level === 'R').length).toBeGreaterThan(10);
    expect(
      withR.results
        .filter((r) => r.level === 'R')
        .every((r) => r.tier === 'reference' && r.parents.length === 0),
    ).toBe(true);
    const without = await queryMemory(
      { text: 'kong body 10KB 413', projects: ['demo'], limit: 50 },
      { items: store.items },
    );
    expect(without.results.some((r) => r.level === 'R')).toBe(false);
  });

  it('never returns superseded or tombstoned memories, nor other projects unless asked', async () => {
    const result = await queryMemory(
      { text: 'kong 10KB 413 grafana dashboards exported', projects: ['demo'], limit: 50 },
      { items: store.items },
    );
    // The kong line outlived M_KONG (superseded by M_BOTH), which kept it: it belongs to M_BOTH now.
    expect(result.results.find((r) => r.sha256 === line(M_KONG))?.note).toMatchObject({
      sha256: sha(M_BOTH),
      query_id: 'infra-root-causes',
    });
    expect(shas(result)).not.toContain(sha(M_KONG)); // a whole memory is never an answer
    expect(shas(result)).not.toContain(line(M_GONE)); // its memory was tombstoned
    expect(shas(result)).not.toContain(line(OTHER)); // other project
    const both = await queryMemory({ text: 'kong 10KB', limit: 50 }, { items: store.items });
    expect(both.recall.projects).toEqual(['demo', 'other']);
    expect(shas(both)).toContain(line(OTHER));
  });
});

describe('queryMemory: abstention', () => {
  it('answers a related question', async () => {
    const result = await queryMemory(
      { text: 'why did requests over 10KB fail?', projects: ['demo'] },
      { items: store.items },
    );
    expect(result.abstained).toBe(false);
    expect(result.results[0]!.sha256).toBe(line(M_KONG));
    expect(result.results[0]!.ranking.floor_passed_by).toEqual(['keyword']);
  });

  it('abstains on an unrelated question: no rows, a stable reason', async () => {
    const result = await queryMemory(
      { text: 'How does quantum chromodynamics explain confinement?', projects: ['demo'] },
      { items: store.items },
    );
    expect(result).toMatchObject({ results: [], abstained: true, reason: INSUFFICIENT_RECALL });
  });

  it('abstains when one common word matched and the distinctive ones did not (absolute, not the least-bad row)', async () => {
    const text = 'attention to quantum chromodynamics confinement';
    expect(
      store.items.keywordRecall('"attention"', { projects: ['demo'], levels: ['L1'], limit: 5 })
        .length,
    ).toBeGreaterThan(0);
    expect(
      await queryMemory({ text, projects: ['demo'], levels: ['L1'] }, { items: store.items }),
    ).toMatchObject({ results: [], abstained: true, reason: INSUFFICIENT_RECALL });
    // Below the floor, a row can still ride along beneath one that clears it, and says so.
    const mixed = await queryMemory(
      { text: 'hermes-google attention', projects: ['demo'], levels: ['L1'], limit: 50 },
      { items: store.items },
    );
    expect(mixed.results[0]).toMatchObject({
      sha256: line(M_SECRET),
      ranking: { floor_passed_by: ['keyword'], keyword: { matched_terms: ['hermes', 'google'] } },
    });
    expect(mixed.results.at(-1)!.ranking).toMatchObject({
      floor_passed_by: [],
      keyword: { matched_terms: ['attention'], coverage: 1 / 3 },
    });
    // Relevance first: every row that cleared the floor precedes every row that did not.
    const cleared = mixed.results.map((r) => r.ranking.floor_passed_by.length > 0);
    expect(cleared).toEqual([...cleared].sort((a, b) => Number(b) - Number(a)));
  });

  it('abstains on an empty store and on text with no words', async () => {
    expect(
      (await queryMemory({ text: '?!…', projects: ['demo'] }, { items: store.items })).abstained,
    ).toBe(true);
    expect(
      (await queryMemory({ text: 'kong', projects: ['nobody'] }, { items: store.items })).abstained,
    ).toBe(true);
  });
});

describe('queryMemory: citations', () => {
  it('an L2 walks to its L1 parents and their L0 evidence', async () => {
    const result = await queryMemory(
      { text: 'root causes known startup race', projects: ['demo'], levels: ['L2'] },
      { items: store.items },
    );
    const hit = result.results[0]!;
    expect(hit).toMatchObject({ level: 'L2', sha256: sha(L2), tier: 'memory' });
    expect(hit.parents.map((p) => [p.level, p.sha256])).toEqual([
      ['L1', sha(M_BOTH)],
      ...[sha(E_KONG), sha(E_CI)].sort().map((s) => ['L0', s]),
    ]);
    expect(hit.parents.find((p) => p.sha256 === sha(E_KONG))).toEqual({
      level: 'L0',
      sha256: sha(E_KONG),
      source: 'claude:session-1',
      text: E_KONG,
      t: 1,
    });
  });

  it('an L1 cites its evidence, but not evidence a tombstone deleted', async () => {
    const kong = await queryMemory(
      { text: 'proxy-body-size', projects: ['demo'] },
      { items: store.items },
    );
    expect(kong.results[0]!.parents.map((p) => p.sha256).sort()).toEqual(
      [sha(E_KONG), sha(E_CI)].sort(),
    );
    const secret = await queryMemory(
      { text: 'hermes-google staging token', projects: ['demo'] },
      { items: store.items },
    );
    expect(secret.results[0]!.sha256).toBe(line(M_SECRET));
    expect(secret.results[0]!.parents).toEqual([]);
  });
});

describe('queryMemory: citation modes', () => {
  const ask = (citations: 'full' | 'excerpt' | 'none') =>
    queryMemory({ text: 'zeppelin hangar', projects: ['demo'], citations }, { items: store.items });

  it('full cites the whole text, excerpt its first 400 characters (code points) and their count, none nothing', async () => {
    expect((await ask('full')).results[0]!.parents).toEqual([
      { level: 'L0', sha256: sha(E_LONG), source: 'claude:session-1', text: E_LONG, t: 1 },
    ]);
    const [excerpt] = (await ask('excerpt')).results[0]!.parents;
    expect(excerpt).toEqual({
      level: 'L0',
      sha256: sha(E_LONG),
      source: 'claude:session-1',
      text: `${[...E_LONG].slice(0, 400).join('')}…`,
      t: 1,
      text_chars: 521,
    });
    expect((await ask('none')).results[0]!.parents).toEqual([]);
  });

  it('an excerpt of a text that fits is the text, without a count', async () => {
    const kong = await queryMemory(
      { text: 'proxy-body-size', projects: ['demo'], citations: 'excerpt' },
      { items: store.items },
    );
    expect(kong.results[0]!.parents.find((p) => p.sha256 === sha(E_KONG))).toEqual({
      level: 'L0',
      sha256: sha(E_KONG),
      source: 'claude:session-1',
      text: E_KONG,
      t: 1,
    });
  });
});

describe('queryMemory: hostile keyword input', () => {
  it('hyphens, quotes, NEAR, *, column names and operators are words: no error, no change of meaning', async () => {
    const ask = (text: string) => queryMemory({ text, projects: ['demo'] }, { items: store.items });
    expect((await ask('hermes-google')).results[0]!.sha256).toBe(line(M_SECRET));
    expect((await ask('proxy-body-size: 0')).results[0]!.sha256).toBe(line(M_KONG));
    // Operators and syntax are words: each hostile form answers as its plain words do.
    const same = async (hostile: string, plain: string) =>
      expect(shas(await ask(hostile))).toEqual(shas(await ask(plain)));
    await same('kong AND NOT body', 'kong body'); // NOT excludes nothing
    expect(shas(await ask('kong AND NOT body'))).toContain(line(M_KONG));
    await same('NEAR(kong body)', 'near kong body');
    await same('text:kong', 'text kong');
    await same('kong*', 'kong');
    await same('"proxy-body-size"', 'proxy body size');
    for (const text of [
      '"unbalanced',
      'NEAR(kong body)',
      'text:kong',
      'kong*',
      '-size',
      '^kong',
      '(kong',
      'kong OR',
      '""""',
      "it's 2026-08-05",
      'node_fts:kong',
      'rank:1',
      '*',
      '+',
      'AND',
      'NOT NOT',
    ]) {
      await expect(ask(text)).resolves.toHaveProperty('abstained');
    }
  });

  it('property: no text makes a query throw', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', minLength: 1 }),
          fc.string({ unit: 'grapheme', minLength: 1 }),
        ),
        async (text) => {
          if (text.trim() === '') return;
          const result = await queryMemory(
            { text, projects: ['demo'], levels: ['L1', 'L2', 'R'] },
            { items: store.items },
          );
          expect(typeof result.abstained).toBe('boolean');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('queryMemory: vector side', () => {
  it('fuses keyword, text and symptom recall, with the filters passed into each vector recall', async () => {
    const vectors = await fakeVectorRecall(store.items, ['demo', 'other'], {
      [M_PROSE]: '413 Request Entity Too Large',
    });
    const result = await queryMemory(
      { text: 'why did requests over 10KB fail', projects: ['demo'], limit: 5 },
      { items: store.items, vectors, embedder: fakeEmbedder() },
    );
    expect(result.recall).toMatchObject({
      signals: ['keyword', 'vector_text', 'vector_symptom'],
      vector: 'used',
      errors: [],
    });
    // Text vectors at every default level, curated items (I) included; symptoms at L1/L2 only.
    expect(vectors.calls.map((c) => [c.kind, c.projects.join(), c.levels.join()]).sort()).toEqual([
      ['symptom', 'demo', 'L1,L2'],
      ['text', 'demo', 'L1,L2,I'],
    ]);
    expect(result.results[0]!.sha256).toBe(line(M_KONG));
    expect(result.results[0]!.ranking.keyword?.rank).toBe(1);
    expect(result.results[0]!.ranking.vector_text).not.toBeNull();
  });

  it('records the floor and fusion weights it used, and embeds the question as a query', async () => {
    const vectors = await fakeVectorRecall(store.items, ['demo']);
    const embedder = fakeEmbedder();
    const tuned = await queryMemory(
      { text: 'why did requests over 10KB fail', projects: ['demo'] },
      {
        items: store.items,
        vectors,
        embedder,
        floor: { minSimilarity: 0.55 },
        weights: { vector_text: 0.25 },
      },
    );
    expect(tuned.recall.floor).toEqual({ minCoverage: 0.34, minKeyword: 1.5, minSimilarity: 0.55 });
    expect(tuned.recall.weights).toEqual({ keyword: 1, vector_text: 0.25, vector_symptom: 1 });
    expect(embedder.roles).toEqual(['query']);
    const plain = await queryMemory({ text: 'kong', projects: ['demo'] }, { items: store.items });
    expect(plain.recall).toMatchObject({
      floor: { minCoverage: 0.34, minKeyword: 1.5, minSimilarity: 0.6 },
      weights: { keyword: 1, vector_text: 1, vector_symptom: 1 },
    });
  });

  it('a pasted error finds a memory written as prose through its symptom vector', async () => {
    const vectors = await fakeVectorRecall(store.items, ['demo'], {
      [M_PROSE]: '413 Request Entity Too Large',
    });
    const text = 'HTTP/1.1 413 Request Entity Too Large';
    const keywordOnly = await queryMemory(
      { text, projects: ['demo'], limit: 50 },
      { items: store.items },
    );
    expect(shas(keywordOnly)).not.toContain(line(M_PROSE));
    const result = await queryMemory(
      { text, projects: ['demo'], limit: 3 },
      { items: store.items, vectors, embedder: fakeEmbedder(), floor: { minSimilarity: 0.6 } },
    );
    const prose = result.results.find((r) => r.sha256 === line(M_PROSE));
    expect(prose?.ranking.vector_symptom?.rank).toBe(1);
    expect(prose?.ranking.floor_passed_by).toContain('vector_symptom');
  });

  it('without a vector side it says so, and a failed vector leg degrades to keywords with the error recorded', async () => {
    const plain = await queryMemory({ text: 'kong', projects: ['demo'] }, { items: store.items });
    expect(plain.recall).toMatchObject({ signals: ['keyword'], vector: 'not configured' });
    expect(plain.results[0]!.ranking.signals).toEqual(['keyword']);
    const vectors = await fakeVectorRecall(store.items, ['demo']);
    const broken = {
      name: 'broken',
      dims: 64,
      embed: async () => Promise.reject(new Error('connection refused')),
    };
    const result = await queryMemory(
      { text: 'kong', projects: ['demo'] },
      { items: store.items, vectors, embedder: broken },
    );
    expect(result.recall.vector).toBe('failed');
    expect(result.recall.errors).toEqual([
      { leg: 'vector', code: 'MODEL_FAILED', message: 'connection refused' },
    ]);
    expect(shas(result)).toEqual(shas(plain));
  });

  it('an embedder answering the wrong dimensions is a failed leg, not a crash', async () => {
    const vectors = await fakeVectorRecall(store.items, ['demo']);
    const wrong = { name: 'wrong', dims: 8, embed: async () => [new Float32Array(4)] };
    const result = await queryMemory(
      { text: 'kong', projects: ['demo'] },
      { items: store.items, vectors, embedder: wrong },
    );
    expect(result.recall.errors[0]).toMatchObject({ leg: 'vector', code: 'MODEL_FAILED' });
  });

  it('drops what a vector recall should not have returned: another level, a superseded or deleted node', async () => {
    const recall = async () => [
      { project: 'demo', level: 'R' as const, sha256: FLOOD[0]!['sha256'] as string, distance: 0 },
      { project: 'demo', level: 'L1' as const, sha256: sha(M_KONG), distance: 0 },
      { project: 'demo', level: 'L1' as const, sha256: sha(M_GONE), distance: 0 },
      { project: 'other', level: 'L1' as const, sha256: sha(OTHER), distance: 0 },
      { project: 'demo', level: 'L1' as const, sha256: sha(M_PROSE), distance: 0.05 },
    ];
    const leaky = {
      recall,
      recallEach: async (_v: Float32Array, requests: readonly unknown[]) =>
        Promise.all(requests.map(recall)),
      close: async () => {},
    };
    const result = await queryMemory(
      { text: 'uploads', projects: ['demo'], limit: 50 },
      { items: store.items, vectors: leaky, embedder: fakeEmbedder() },
    );
    expect(result.recall.vector).toBe('used');
    expect(shas(result)).toEqual([line(M_PROSE)]);
  });

  it('at an equal fused score, an L1 outranks an R', async () => {
    const text = 'kong body 10KB 413';
    const rHit = store.items.keywordRecall('"kong" AND "section" AND "7"', {
      projects: ['demo'],
      levels: ['R'],
      limit: 1,
    })[0]!;
    const onlyR = { name: 'kw', dims: 1, embed: async () => [new Float32Array(1)] };
    const recall = async (kind: string) =>
      kind === 'text'
        ? // A vector hit at L1 is a line: the memory's first.
          [
            {
              project: 'demo',
              level: 'L1' as const,
              sha256: sha(splitMemoryLines(M_PROSE)[0]!),
              distance: 0.1,
            },
          ]
        : [];
    const vectors = {
      recall,
      recallEach: async (_vector: Float32Array, requests: readonly { kind: string }[]) =>
        Promise.all(requests.map(({ kind }) => recall(kind))),
      close: async () => {},
    };
    // Keyword ranks the R passage first (levels R only would be a different query), so pin it:
    const items = {
      ...store.items,
      tokenPostings: (token: string, set: ReachableSet) =>
        store.items.tokenPostings(token, set).filter((p) => p.id === rHit.node.id),
    };
    const result = await queryMemory(
      { text, projects: ['demo'], levels: ['L1', 'R'] },
      { items, vectors, embedder: onlyR, floor: { minKeyword: 0, minSimilarity: 0 } },
    );
    expect(result.recall.vector).toBe('used');
    expect(result.results.map((r) => [r.level, r.ranking.rrf_score_micro])).toEqual([
      ['L1', 16393],
      ['R', 16393],
    ]);
  });
});

describe('queryMemory: rerank', () => {
  it('reorders the survivors of the floor and records each rerank rank', async () => {
    const reranker = {
      name: 'reverse',
      rerank: async (_q: string, docs: readonly string[]) => docs.map((_, i) => i),
    };
    const open = { minCoverage: 0, minKeyword: 0 }; // every row clears the floor: the rerank alone orders them
    const plain = await queryMemory(
      { text: 'kong 10KB body', projects: ['demo'], levels: ['L1', 'L2'] },
      { items: store.items, floor: open },
    );
    const result = await queryMemory(
      { text: 'kong 10KB body', projects: ['demo'], levels: ['L1', 'L2'] },
      { items: store.items, reranker, floor: open },
    );
    expect(result.recall.rerank).toBe('used');
    expect(shas(result)).toEqual([...shas(plain)].reverse());
    expect(result.results[0]!.ranking.rerank).toEqual({ rank: 1, score: plain.results.length - 1 });
    expect(result.results[0]!.score).toBe(plain.results.length - 1);
  });

  it('never lifts a row below the floor above one that cleared it', async () => {
    const reranker = {
      name: 'reverse',
      rerank: async (_q: string, docs: readonly string[]) => docs.map((_, i) => i),
    };
    const result = await queryMemory(
      { text: 'hermes-google attention', projects: ['demo'], levels: ['L1'], limit: 50 },
      { items: store.items, reranker },
    );
    const cleared = result.results.map((r) => r.ranking.floor_passed_by.length > 0);
    expect(cleared[0]).toBe(true);
    expect(cleared).toEqual([...cleared].sort((a, b) => Number(b) - Number(a)));
  });

  it('a failing reranker leaves the fused order and records the error', async () => {
    const reranker = { name: 'down', rerank: async () => Promise.reject(new Error('503')) };
    const result = await queryMemory(
      { text: 'kong 10KB body', projects: ['demo'] },
      { items: store.items, reranker },
    );
    expect(result.recall.rerank).toBe('failed');
    expect(result.results.every((r) => r.ranking.rerank === null)).toBe(true);
  });
});

describe('queryMemory: keyword strategy', () => {
  it('and-then-or puts every node holding all the terms before any partial match', async () => {
    const result = await queryMemory(
      { text: 'kong body buffering pg', projects: ['demo'], levels: ['L1', 'L2', 'R'], limit: 50 },
      { items: store.items, keywordStrategy: 'and-then-or' },
    );
    const complete = result.results.map((r) => r.ranking.keyword?.coverage === 1);
    expect(complete[0]).toBe(true);
    expect(complete).toEqual([...complete].sort((a, b) => Number(b) - Number(a)));
  });
});

describe('queryMemory: postings budget', () => {
  it('leaves the commonest terms out of the recall, still counting them in matched_terms', async () => {
    const text = 'hermes-google kong body';
    const full = await queryMemory(
      { text, projects: ['demo'], levels: ['L1', 'R'] },
      { items: store.items },
    );
    expect(full.recall.left_out).toEqual([]);
    // kong and body sit in 120 R passages of the reachable set: past a budget of 10 postings, only the rare terms are searched.
    const tight = await queryMemory(
      { text, projects: ['demo'], levels: ['L1', 'R'] },
      { items: store.items, postingsBudget: 10 },
    );
    expect(tight.recall.left_out.sort()).toEqual(['body', 'kong']);
    expect(tight.recall.terms).toEqual(['hermes', 'google', 'kong', 'body']);
    expect(tight.results[0]).toMatchObject({
      sha256: line(M_SECRET),
      ranking: { keyword: { matched_terms: ['hermes', 'google'], coverage: 0.5 } },
    });
    expect(
      tight.results.every((r) =>
        r.ranking.keyword!.matched_terms.some((t) => t === 'hermes' || t === 'google'),
      ),
    ).toBe(true);
  });
});
