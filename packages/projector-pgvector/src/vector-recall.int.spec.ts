import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectionTarget } from '@mem/engine';
import { usePglite } from '../test/pglite-servers.js';
import { applyLogs, payload, sha, suiteTargets, tempTargets } from '../test/support.js';
import { tableEmbedder } from '../test/table-embedder.js';
import { projectorPgvector } from './projector.js';
import { quoteIdent, sharedSchemaFor } from './schema/identifiers.js';
import { openVectorRecall } from './vector-recall.js';

/*
 * Tiny hand-written vectors with an obvious order. Cosine distances to the query [1, 0, 0]:
 * kong 0, kong-fix 1 - 0.9/sqrt(0.82) ≈ 0.0061, postgres 1, doc-kong ≈ 0.0012, doc-flags 1.
 */
const VECTORS: Record<string, number[]> = {
  'kong buffered the body': [1, 0, 0],
  'kong fixed with proxy-body-size': [0.9, 0.1, 0],
  'postgres volume mount': [0, 1, 0],
  'doc: kong body buffering': [1, 0.05, 0],
  'doc: kubectl flags': [0, 0, 1],
  '413 Request Entity Too Large': [0, 0, 1],
  'kong again': [0.99, 0, 0.01],
  'evidence one': [0.5, 0.5, 0],
  'evidence two': [0.5, 0.5, 0],
  'evidence three': [0.5, 0.5, 0],
};
const Q = Float32Array.from([1, 0, 0]);
const L12 = ['L1', 'L2'] as const;

const shared = usePglite();

describe('openVectorRecall', () => {
  const temp = suiteTargets();

  const embedder = tableEmbedder(VECTORS);
  const projector = () => projectorPgvector({ pglite: shared.db, embedder });
  const reader = async (target: ProjectionTarget, expectEmbedder?: string) => {
    const recall = await openVectorRecall({
      pglite: shared.db,
      stateDir: target.stateDir,
      ...(expectEmbedder ? { expectEmbedder } : {}),
    });
    return temp.opened(recall);
  };

  let target: ProjectionTarget;
  beforeAll(async () => {
    target = temp.target();
    await applyLogs(projector(), target, {
      demo: [
        payload.run('r1', 'infra-root-causes'),
        payload.evidence('r1', 1, 'evidence one'),
        payload.memory('r1', 1, 'kong buffered the body', ['evidence one'], {
          symptom: '413 Request Entity Too Large',
        }),
        payload.run('r2', 'architecture-decisions'),
        payload.evidence('r2', 1, 'evidence two'),
        payload.memory('r2', 1, 'postgres volume mount', ['evidence two']),
        payload.run('r3', 'open-questions'),
        payload.evidence('r3', 1, 'evidence three'),
        payload.memory('r3', 1, 'kong fixed with proxy-body-size', ['evidence three']),
        payload.reference('doc: kong body buffering'),
        payload.reference('doc: kubectl flags'),
      ],
      other: [
        payload.run('o1', 'infra-root-causes'),
        payload.evidence('o1', 1, 'evidence one'),
        payload.memory('o1', 1, 'kong buffered the body', ['evidence one']),
      ],
    });
  });

  it('orders by cosine distance, with the distances one can compute by hand', async () => {
    const hits = await (
      await reader(target)
    ).recall('text', Q, { projects: ['demo'], levels: [...L12] }, 10);
    expect(hits.map((h) => h.sha256)).toEqual([
      sha('kong buffered the body'),
      sha('kong fixed with proxy-body-size'),
      sha('postgres volume mount'),
    ]);
    expect(hits.map((h) => h.distance)).toEqual([
      expect.closeTo(0, 6),
      expect.closeTo(1 - 0.9 / Math.sqrt(0.82), 6),
      expect.closeTo(1, 6),
    ]);
    expect(hits[0]).toMatchObject({ project: 'demo', level: 'L1' });
  });

  it('filters levels and projects inside the query, and breaks distance ties by project', async () => {
    const recall = await reader(target);
    expect(
      (await recall.recall('text', Q, { projects: ['demo'], levels: ['R'] }, 10)).map(
        (h) => h.sha256,
      ),
    ).toEqual([sha('doc: kong body buffering'), sha('doc: kubectl flags')]);
    expect(await recall.recall('text', Q, { projects: ['demo'], levels: ['L0'] }, 10)).toEqual([]); // evidence has no vectors
    const both = await recall.recall('text', Q, { projects: ['other', 'demo'], levels: ['L1'] }, 2);
    expect(both.map((h) => [h.project, h.distance])).toEqual([
      ['demo', expect.closeTo(0, 6)],
      ['other', expect.closeTo(0, 6)],
    ]);
    expect(
      (await recall.recall('text', Q, { projects: ['nobody'], levels: ['L1'] }, 5)).length,
    ).toBe(0);
  });

  it('finds a memory by its symptom vector, and only symptom vectors answer the symptom kind', async () => {
    // Texts and symptoms alike are stored, so they are embedded as documents (a prefixed model
    // puts them apart from the questions matched against them).
    expect(new Set(embedder.roles)).toEqual(new Set(['document']));
    const recall = await reader(target);
    const hits = await recall.recall(
      'symptom',
      Float32Array.from([0, 0, 1]),
      { projects: ['demo'], levels: [...L12] },
      5,
    );
    expect(hits).toEqual([
      {
        project: 'demo',
        level: 'L1',
        sha256: sha('kong buffered the body'),
        distance: expect.closeTo(0, 6),
      },
    ]);
  });

  it('answers a batch of recalls in one statement, each as recall answers it alone, in request order', async () => {
    const recall = await reader(target);
    const S = Float32Array.from([0, 0.2, 1]);
    const requests = [
      { kind: 'symptom', filter: { projects: ['demo'], levels: [...L12] } },
      { kind: 'text', filter: { projects: ['demo', 'other'], levels: ['L1', 'R'] } },
      { kind: 'text', filter: { projects: ['nobody'], levels: ['L1'] } },
    ] as const;
    const batch = await recall.recallEach(S, requests, 3);
    const alone = [];
    for (const { kind, filter } of requests) alone.push(await recall.recall(kind, S, filter, 3));
    expect(batch).toEqual(alone);
    expect(batch.map((hits) => hits.length)).toEqual([1, 3, 0]);
    expect(await recall.recallEach(S, [], 3)).toEqual([]);
    // One bad request refuses the batch, naming the field.
    await expect(
      recall.recallEach(
        S,
        [requests[0], { kind: 'text', filter: { projects: [], levels: ['L1'] } }],
        3,
      ),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'filter.projects' },
    });
  });

  it('leaves out superseded and tombstoned memories, and brings back a text that returns', async () => {
    const chain = temp.target();
    const A = 'kong buffered the body';
    const B = 'kong again';
    await applyLogs(projector(), chain, {
      demo: [
        payload.run('r1', 'infra-root-causes'),
        payload.evidence('r1', 1, 'evidence one'),
        payload.memory('r1', 1, A, ['evidence one']),
        payload.memory('r1', 2, B, ['evidence one']), // supersedes A
        payload.run('r3', 'open-questions'),
        payload.evidence('r3', 1, 'evidence three'),
        payload.memory('r3', 1, 'kong fixed with proxy-body-size', ['evidence three']),
        payload.tombstone('kong fixed with proxy-body-size'),
      ],
    });
    const recall = await reader(chain);
    expect(
      (await recall.recall('text', Q, { projects: ['demo'], levels: ['L1'] }, 10)).map(
        (h) => h.sha256,
      ),
    ).toEqual([sha(B)]);
    // The chain returns to A: A is the head again, B is superseded.
    const more = temp.target();
    await applyLogs(projector(), more, {
      demo: [
        payload.run('r1'),
        payload.evidence('r1', 1, 'evidence one'),
        payload.memory('r1', 1, A, ['evidence one']),
        payload.memory('r1', 2, B, ['evidence one']),
        payload.memory('r1', 3, A, ['evidence one']),
      ],
    });
    expect(
      (
        await (await reader(more)).recall('text', Q, { projects: ['demo'], levels: ['L1'] }, 10)
      ).map((h) => h.sha256),
    ).toEqual([sha(A)]);
  });

  it('refuses requests that cannot mean anything with INVALID_INPUT naming the field', async () => {
    const recall = await reader(target);
    const filter = { projects: ['demo'], levels: ['L1' as const] };
    const cases: [unknown[], string][] = [
      [['prose', Q, filter, 5], 'kind'],
      [['text', [1, 0, 0], filter, 5], 'vector'],
      [['text', Float32Array.from([1, 0]), filter, 5], 'vector'],
      [['text', Float32Array.from([0, 0, 0]), filter, 5], 'vector'],
      [['text', Float32Array.from([Number.NaN, 0, 0]), filter, 5], 'vector'],
      [['text', Q, { projects: [], levels: ['L1'] }, 5], 'filter.projects'],
      [['text', Q, { projects: ['demo'], levels: ['L3'] }, 5], 'filter.levels'],
      [['text', Q, filter, 0], 'limit'],
      [['text', Q, filter, 1.5], 'limit'],
    ];
    for (const [args, field] of cases) {
      await expect(
        (recall.recall as (...a: unknown[]) => Promise<unknown>)(...args),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field } });
    }
  });

  it('says NOT_FOUND where no projection was built, and CONFIG_INVALID for another embedder', async () => {
    await expect(
      openVectorRecall({ pglite: shared.db, stateDir: temp.target().stateDir }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      openVectorRecall({ stateDir: temp.target().stateDir, databaseUrl: null }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(reader(target, 'hash-768')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      details: { projection: 'table-3', query: 'hash-768' },
    });
    expect(
      await (
        await reader(target, 'table-3')
      ).recall('text', Q, { projects: ['demo'], levels: ['L1'] }, 1),
    ).toHaveLength(1);
  });

  it('says PROJECTION_FAILED, naming the rebuild, for a projection that other migrations wrote (mem upgraded, not yet reopened)', async () => {
    const stale = temp.target();
    await applyLogs(projector(), stale, { demo: [payload.reference('doc: kubectl flags')] });
    await shared.db.query(
      `UPDATE ${quoteIdent(sharedSchemaFor(stale.stateDir))}.memory_meta SET value = 'an older schema' WHERE key = 'schema_fingerprint'`,
    );
    await expect(reader(stale)).rejects.toMatchObject({
      code: 'PROJECTION_FAILED',
      message: expect.stringContaining('mem rebuild --from-log'),
    });
  });
});

describe('filter-then-recall', () => {
  const temp = tempTargets();
  afterAll(() => temp.cleanup());

  it('keeps an L1 answer in the top k under a flood of nearer R passages, on the HNSW path too', async () => {
    // 1200 references all nearer to the query than the one L1 memory.
    const refs = Array.from({ length: 1200 }, (_, i) => `doc ${i}`);
    const table: Record<string, number[]> = { 'the answer': [0.2, 1, 0], e: [0, 0, 1] };
    refs.forEach((text, i) => (table[text] = [1, (i % 97) / 1000, (i % 89) / 1000]));
    const target = temp.target();
    await applyLogs(
      projectorPgvector({ pglite: shared.db, embedder: tableEmbedder(table) }),
      target,
      {
        demo: [
          payload.run('r1'),
          payload.evidence('r1', 1, 'e'),
          payload.memory('r1', 1, 'the answer', ['e']),
          ...refs.map((text) => payload.reference(text)),
        ],
      },
    );
    const recall = await openVectorRecall({ pglite: shared.db, stateDir: target.stateDir });
    try {
      const ask = () => recall.recall('text', Q, { projects: ['demo'], levels: ['L1', 'L2'] }, 3);
      expect((await ask()).map((h) => h.sha256)).toEqual([sha('the answer')]);
      // Make sorting unaffordable: the planner must walk the HNSW index, and the filter rides along.
      await shared.db.exec('SET enable_sort = off; SET enable_seqscan = off');
      const ann = `SELECT node_sha FROM ${quoteIdent(sharedSchemaFor(target.stateDir))}.memory_vector
        WHERE kind = 'text' AND live AND project = ANY('{demo}') AND level = ANY('{L1,L2}') ORDER BY embedding <=> '[1,0,0]' LIMIT 3`;
      const plan = await shared.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${ann}`);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('memory_vector_text_hnsw');
      // Measured with pgvector 0.8.7: this index scan alone, iterative or not, returns nothing here
      // (the lone L1 vector was loaded first; loaded last, the iterative scan finds it). recall()
      // still answers: an underfilled ANN result is settled by an exact scan.
      expect((await ask()).map((h) => h.sha256)).toEqual([sha('the answer')]);
      const top = await recall.recall('text', Q, { projects: ['demo'], levels: ['R'] }, 5);
      expect(top).toHaveLength(5);
      expect(top.every((h) => h.level === 'R' && h.distance < 0.01)).toBe(true);
    } finally {
      await shared.db.exec('RESET enable_sort; RESET enable_seqscan');
      await recall.close();
    }
  });

  it('settles an ANN scan that gave up before the filter let enough through with an exact scan', async () => {
    // 30 live memories far from the query, 600 references next to it: the filter (L1) passes
    // more rows than a recall fetches, so it takes the HNSW path, which is told to give up early.
    const memories = Array.from({ length: 30 }, (_, i) => `memory ${i}`);
    const refs = Array.from({ length: 600 }, (_, i) => `doc ${i}`);
    const table: Record<string, number[]> = { e: [0, 0, 1] };
    memories.forEach((text, i) => (table[text] = [i / 1000, 1, 0]));
    refs.forEach((text, i) => (table[text] = [1, (i % 97) / 1000, (i % 89) / 1000]));
    const target = temp.target();
    await applyLogs(
      projectorPgvector({ pglite: shared.db, embedder: tableEmbedder(table) }),
      target,
      {
        demo: [
          payload.evidence('r0', 1, 'e'),
          ...memories.flatMap((text, i) => [
            payload.run(`r${i}`, `q-${i}`),
            payload.memory(`r${i}`, 1, text, ['e']),
          ]),
          ...refs.map((text) => payload.reference(text)),
        ],
      },
    );
    // 30 rows are under the exact-scan threshold: 0 opens the ANN path this test is about.
    const recall = await openVectorRecall({
      pglite: shared.db,
      stateDir: target.stateDir,
      exactScanMax: 0,
    });
    try {
      await shared.db.exec(
        'SET hnsw.max_scan_tuples = 1; SET enable_seqscan = off; SET enable_sort = off',
      );
      const hits = await recall.recall('text', Q, { projects: ['demo'], levels: ['L1'] }, 3);
      expect(hits.map((h) => h.sha256)).toEqual(
        ['memory 29', 'memory 28', 'memory 27'].map((t) => sha(t)),
      );
    } finally {
      await shared.db.exec('RESET hnsw.max_scan_tuples; RESET enable_seqscan; RESET enable_sort');
      await recall.close();
    }
  });
});
