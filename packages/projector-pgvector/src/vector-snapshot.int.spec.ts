import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Payload } from '@mem/core';
import { hashEmbedder } from '@mem/embed';
import { projectStretch, type ProjectionTarget } from '@mem/engine';
import { vectorLiteral } from './apply/vector-literal.js';
import { openBackend, type Backend } from './backend/open-backend.js';
import { projectorPgvector } from './projector.js';
import type { RecallRequest, VectorHit, VectorLevel } from './recall-types.js';
import { quoteIdent } from './schema/identifiers.js';
import { applyLogs, chainEvents, payload, projected, sha, tempTargets } from '../test/support.js';
import { openVectorRecall } from './vector-recall.js';
import { byDistanceThenKey, EXACT_SCAN_MAX, VectorSnapshot } from './vector-snapshot.js';

/*
 * The in-process copy of the embedded projection's vectors (issue 15 target 3) answers exactly
 * what recall_vectors' exact scan answers: the same hits, the same float distances, the same
 * order, the requested projects alone; and it is dropped by any write to the database.
 */
const DIMS = 48;
const embedder = hashEmbedder(DIMS);
const config = loadConfig(process.env);
const LEVELS: VectorLevel[] = ['L0', 'L1', 'L2', 'R', 'I'];

/** `count` live memories (each its own standing query) and as many references. */
const content = (project: string, count: number, salt = ''): Payload[] =>
  Array.from({ length: count }, (_, i) => [
    payload.run(`${project}-r${i}${salt}`, `q${i}${salt}`),
    payload.evidence(`${project}-r${i}${salt}`, 1, `${project} evidence ${i}${salt}`),
    payload.memory(
      `${project}-r${i}${salt}`,
      1,
      `${project} kong memory ${i} ${salt} ${i % 3 === 0 ? 'ingress timeout' : 'postgres volume'}`,
      [`${project} evidence ${i}${salt}`],
      { symptom: `error ${i % 5} ${project}` },
    ),
    payload.reference(`${project} doc ${i} ${salt} about kong and buffers`),
  ]).flat();

/** Deterministic query vectors: dense pseudo-random floats, and embedded texts. */
function queries(): Float32Array[] {
  let x = 12345;
  const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  return Array.from({ length: 12 }, () => Float32Array.from({ length: DIMS }, rnd));
}

const requestSets = (): RecallRequest[][] => [
  [
    { kind: 'text', filter: { projects: ['alpha'], levels: LEVELS } },
    { kind: 'symptom', filter: { projects: ['alpha'], levels: ['L1', 'L2'] } },
  ],
  [{ kind: 'text', filter: { projects: ['alpha', 'beta'], levels: ['L1', 'R'] } }],
  [{ kind: 'text', filter: { projects: ['beta'], levels: ['R'] } }],
  [{ kind: 'symptom', filter: { projects: ['beta', 'alpha'], levels: ['L1'] } }],
];

describe('VectorSnapshot: the embedded projection copied in process', () => {
  const temp = tempTargets();
  let target: ProjectionTarget;
  let backend: Backend;
  let reads = 0;
  let snapshot: VectorSnapshot;

  /** recall_vectors itself, as the read side calls it, with the exact-scan threshold: the oracle. */
  const database = async (vector: Float32Array, requests: RecallRequest[], limit: number) => {
    const out: VectorHit[][] = [];
    for (const { kind, filter } of requests) {
      // A read: a counted query would move SqlClient.changes and drop the copy under test.
      const rows = await backend.client.read!<VectorHit & { exact: boolean }>(
        `SELECT exact, project, level, sha256, distance FROM ${quoteIdent(backend.schema)}.recall_vectors($1, $2::vector, $3::text[], $4::text[], $5, 100, $6, $7)`,
        [
          kind,
          vectorLiteral(vector),
          [...filter.projects],
          [...filter.levels],
          limit + 16,
          backend.extension.iterativeScan,
          EXACT_SCAN_MAX,
        ],
      );
      expect(rows.every((r) => r.exact)).toBe(true);
      out.push(
        rows
          .map(({ project, level, sha256, distance }) => ({ project, level, sha256, distance }))
          .sort(byDistanceThenKey)
          .slice(0, limit),
      );
    }
    return out;
  };

  beforeAll(async () => {
    target = temp.target();
    await applyLogs(projectorPgvector({ config, embedder }), target, {
      alpha: content('alpha', 40),
      beta: content('beta', 25),
    });
    backend = (await openBackend(
      { pgliteTemplate: config.MEM_TEST_PGLITE_TEMPLATE },
      target.stateDir,
      {
        create: false,
      },
    )) as Backend;
    const { client } = backend;
    expect(client.changes).toBeDefined(); // the embedded PGlite of this process is counted
    expect(typeof client.read).toBe('function');
    snapshot = new VectorSnapshot({
      changes: client.changes!,
      read: <T>(text: string, params: readonly unknown[]) => {
        reads += 1;
        return client.read!<T>(text, params);
      },
      schema: quoteIdent(backend.schema),
    });
  }, 120_000);
  afterAll(async () => {
    await backend?.client.close();
    temp.cleanup();
  });

  it('copies a project on its second recall, then answers from the copy what the exact scan answers, bit for bit', async () => {
    const [first] = queries();
    const all = requestSets().flat();
    expect(await snapshot.recallEach(first!, all, 10)).toBeNull(); // first recall: the database answers
    expect(reads).toBe(0);
    const copied = await snapshot.recallEach(first!, all, 10);
    expect(reads).toBe(2); // counted, then copied
    expect(copied).toEqual(await database(first!, all, 10));
    let compared = 0;
    for (const vector of [
      ...queries(),
      ...(await embedder.embed(['kong ingress timeout', 'error 3 beta'], 'query')),
    ])
      for (const requests of requestSets())
        for (const limit of [1, 5, 30]) {
          const mine = await snapshot.recallEach(vector, requests, limit);
          expect(mine).toEqual(await database(vector, requests, limit));
          for (const [i, hits] of mine!.entries())
            expect(hits.every((h) => requests[i]!.filter.projects.includes(h.project))).toBe(true);
          compared += mine!.reduce((n, hits) => n + hits.length, 0);
        }
    expect(reads).toBe(2); // all from the copy
    expect(compared).toBeGreaterThan(1000);
  });

  it('drops the copy when the database is written, and copies the new rows', async () => {
    const vector = (await embedder.embed(['alpha kong memory gamma'], 'query'))[0]!;
    const requests = requestSets()[0]!;
    const old = await snapshot.recallEach(vector, requests, 50);
    expect(old).not.toBeNull();
    const before = reads;
    // The projector catches up alpha's next events in this process, on the same PGlite.
    const first = content('alpha', 40);
    const added = content('alpha', 5, 'gamma');
    const chained = chainEvents('alpha', [...first, ...added]);
    const projector = projectorPgvector({ config, embedder });
    const handle = await projector.init(target);
    try {
      await projectStretch(projector, handle, 'alpha', projected(chained.slice(first.length)));
      await projector.seal(handle);
    } finally {
      await projector.close(handle);
    }
    expect(await snapshot.recallEach(vector, requests, 50)).toBeNull(); // asked once again
    const after = await snapshot.recallEach(vector, requests, 50);
    expect(reads).toBe(before + 2); // copied again
    expect(after).toEqual(await database(vector, requests, 50));
    const gamma = new Set(
      added.flatMap((p) => (p.type === 'memory' ? [sha(p.text), sha(`${p.text}\n`)] : [])),
    );
    const isGamma = (h: VectorHit) => gamma.has(h.sha256);
    expect(old!.flat().some(isGamma)).toBe(false);
    expect(after!.flat().some(isGamma)).toBe(true);
  });

  it('answers up to EXACT_SCAN_MAX vectors of a filter, and leaves more to the database (its HNSW path)', async () => {
    // delta: one memory and EXACT_SCAN_MAX references (content's one and these); the filter R
    // passes exactly the threshold, R and L1 one more.
    const refs = Array.from({ length: EXACT_SCAN_MAX - 1 }, (_, i) =>
      payload.reference(`delta doc ${i} ${i % 7 === 0 ? 'kong' : 'helm'} ${i % 11}`),
    );
    const other = temp.target();
    await applyLogs(projectorPgvector({ config, embedder }), other, {
      delta: [...content('delta', 1), ...refs],
    });
    const client = (await openBackend(
      { pgliteTemplate: config.MEM_TEST_PGLITE_TEMPLATE },
      other.stateDir,
      {
        create: false,
      },
    ))!.client;
    try {
      const copy = new VectorSnapshot({
        changes: client.changes!,
        read: <T>(text: string, params: readonly unknown[]) => client.read!<T>(text, params),
        schema: quoteIdent(backend.schema),
      });
      const vector = queries()[2]!;
      const exactly: RecallRequest[] = [
        { kind: 'text', filter: { projects: ['delta'], levels: ['R'] } },
      ];
      const past: RecallRequest[] = [
        { kind: 'text', filter: { projects: ['delta'], levels: ['R', 'L1'] } },
      ];
      expect(await copy.recallEach(vector, exactly, 5)).toBeNull();
      const hits = await copy.recallEach(vector, exactly, 5);
      expect(hits).not.toBeNull();
      expect(hits![0]).toHaveLength(5);
      expect(await copy.recallEach(vector, past, 5)).toBeNull();
      const schema = quoteIdent(backend.schema);
      const viaDatabase = (levels: string[]) =>
        client.read!<VectorHit & { exact: boolean }>(
          `SELECT exact, project, level, sha256, distance FROM ${schema}.recall_vectors('text', $1::vector, '{delta}', $2::text[], 21, 100, $3, $4)`,
          [vectorLiteral(vector), levels, true, EXACT_SCAN_MAX],
        );
      const rows = await viaDatabase(['R']);
      expect(rows.every((r) => r.exact)).toBe(true);
      expect(hits![0]).toEqual(
        rows
          .map(({ project, level, sha256, distance }) => ({ project, level, sha256, distance }))
          .sort(byDistanceThenKey)
          .slice(0, 5),
      );
      expect((await viaDatabase(['R', 'L1'])).some((r) => !r.exact)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers past EXACT_SCAN_MAX where another project holds vectors (the database scans exactly there too), copying a large project without its R rows', async () => {
    // epsilon: 1,400 live memory lines (text and symptom) and 1,400 references, 4,200 live
    // vectors: past the per-project copy, so it is copied without R; zeta holds vectors, so
    // recall_vectors scans epsilon's 1,400 lines exactly, as the copy does. Before, every recall
    // of such a project went to PGlite (the query bench at 100 k: 2,880 lines a project).
    const other = temp.target();
    await applyLogs(projectorPgvector({ config, embedder }), other, {
      epsilon: content('epsilon', 1400),
      zeta: content('zeta', 3),
    });
    const client = (await openBackend(
      { pgliteTemplate: config.MEM_TEST_PGLITE_TEMPLATE },
      other.stateDir,
      { create: false },
    ))!.client;
    try {
      const copy = new VectorSnapshot({
        changes: client.changes!,
        read: <T>(text: string, params: readonly unknown[]) => client.read!<T>(text, params),
        schema: quoteIdent(backend.schema),
      });
      const schema = quoteIdent(backend.schema);
      const lines: RecallRequest[] = [
        { kind: 'text', filter: { projects: ['epsilon'], levels: ['L1', 'L2', 'I'] } },
        { kind: 'symptom', filter: { projects: ['epsilon'], levels: ['L1', 'L2'] } },
      ];
      const [first, ...rest] = [
        ...queries().slice(0, 4),
        ...(await embedder.embed(['epsilon kong memory 7 ingress timeout'], 'query')),
      ];
      expect(await copy.recallEach(first!, lines, 10)).toBeNull(); // first recall: the database
      let compared = 0;
      for (const vector of [first!, ...rest]) {
        const mine = await copy.recallEach(vector, lines, 10);
        expect(mine).not.toBeNull();
        for (const [i, { kind, filter }] of lines.entries()) {
          const rows = await client.read!<VectorHit & { exact: boolean }>(
            `SELECT exact, project, level, sha256, distance FROM ${schema}.recall_vectors($1, $2::vector, $3::text[], $4::text[], 26, 100, $5, $6)`,
            [
              kind,
              vectorLiteral(vector),
              [...filter.projects],
              [...filter.levels],
              true,
              EXACT_SCAN_MAX,
            ],
          );
          expect(rows.length).toBeGreaterThan(0);
          expect(rows.every((r) => r.exact)).toBe(true);
          const theirs = rows
            .map(({ project, level, sha256, distance }) => ({ project, level, sha256, distance }))
            .sort(byDistanceThenKey)
            .slice(0, 10);
          // Five symptom texts in all: past 16 ties at the cut the database keeps any of them
          // (as before; see TIE_SLACK), so symptoms compare by distance, text lines hit for hit.
          if (kind === 'text') expect(mine![i]).toEqual(theirs);
          else expect(mine![i]!.map((h) => h.distance)).toEqual(theirs.map((h) => h.distance));
          compared += mine![i]!.length;
        }
      }
      expect(compared).toBe(5 * 2 * 10);
      // R was not copied: a request for it goes to the database.
      const passages: RecallRequest[] = [
        { kind: 'text', filter: { projects: ['epsilon'], levels: ['R'] } },
      ];
      expect(await copy.recallEach(first!, passages, 10)).toBeNull();
    } finally {
      await client.close();
    }
  }, 300_000);

  it('openVectorRecall on the embedded PGlite answers as the database does, first recall and later', async () => {
    const recall = await openVectorRecall({ config, stateDir: target.stateDir });
    try {
      for (const vector of queries().slice(0, 4))
        for (const requests of requestSets())
          expect(await recall.recallEach(vector, requests, 7)).toEqual(
            await database(vector, requests, 7),
          );
    } finally {
      await recall.close();
    }
  });
});
