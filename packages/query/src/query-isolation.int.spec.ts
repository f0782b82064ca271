import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePglite } from '../../projector-pgvector/test/pglite-servers.js';
import { hybridStore, type HybridStore } from '../test/hybrid-store.js';
import { evidence, filler, memory, reference, run, type Payload } from '../test/store.js';
import { queryMemory } from './query-memory.js';
import type { RecallLevel } from './ports.js';

/*
 * The answer to a query is a function of the projects the caller reaches, and of nothing else:
 * whatever another project holds — the query's own words included — the reachable answer
 * (rows, order, scores, abstention, terms left out) is the same bytes. Real log, real SQLite
 * item store, real pgvector projection on PGlite, the real query path.
 */

const VOCAB = [
  'kong',
  'body',
  'buffered',
  'proxy',
  'upload',
  'postgres',
  'volume',
  'mount',
  'flake',
  'readiness',
  'probe',
  'token',
  'rotated',
  'garden',
  'hose',
];

const ALPHA: readonly Payload[] = [
  run('a-infra', 'L1', 'infra'),
  evidence(
    'a-infra',
    1,
    'POST /upload returned 413: Kong buffered the request body; proxy-body-size: 0 fixed it.',
  ),
  memory('a-infra', 'L1', 1, '- Uploads over 10KB failed with 413: Kong buffered the body.', [
    'POST /upload returned 413: Kong buffered the request body; proxy-body-size: 0 fixed it.',
  ]),
  evidence(
    'a-infra',
    2,
    'The CI flake: postgres started before the volume mount; a readiness probe fixed it.',
  ),
  memory(
    'a-infra',
    'L1',
    2,
    '- CI flake: postgres raced its volume mount; fixed by a readiness probe.',
    ['The CI flake: postgres started before the volume mount; a readiness probe fixed it.'],
    'connection refused',
  ),
  run('a-syn', 'L2', null),
  memory(
    'a-syn',
    'L2',
    1,
    'Infrastructure: Kong body buffering and a postgres startup race, both fixed.',
    ['- CI flake: postgres raced its volume mount; fixed by a readiness probe.'],
  ),
  reference(
    'docs:kong.md',
    'Kong proxy buffering: set proxy-body-size to 0 to stream request bodies.',
  ),
  ...filler('a-infra', 12),
];

const word = fc.oneof(fc.constantFrom(...VOCAB), fc.string({ minLength: 1, maxLength: 8 }));
const sentence = (maxLength: number) =>
  fc.array(word, { minLength: 1, maxLength }).map((words) => words.join(' '));
const queryText = sentence(5).filter((text) => text.trim() !== '');
const levels = fc.constantFrom<RecallLevel[]>(['L1', 'L2'], ['L0', 'L1', 'L2', 'R'], ['R']);

/** Arbitrary evidence, memories (some with a symptom) and reference passages of an unreachable project. */
const otherProject = fc
  .array(
    fc.record({
      evidence: sentence(12),
      memory: sentence(12),
      symptom: fc.option(sentence(4), { nil: undefined }),
      reference: fc.option(sentence(12), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((rows) => [
    run('b-run', 'L1', 'b'),
    ...rows.flatMap((row, i) => {
      const [e, m] = [`${i} ${row.evidence}`, `${i} ${row.memory}`];
      return [
        evidence('b-run', i + 1, e),
        memory('b-run', 'L1', i + 1, m, [e], row.symptom),
        ...(row.reference ? [reference(`docs:b-${i}.md`, `${i} ${row.reference}`)] : []),
      ];
    }),
  ]);

describe('a query answers from the reachable projects alone', () => {
  const pglite = usePglite();
  let alone: HybridStore;
  beforeAll(async () => {
    alone = await hybridStore(pglite.db, { alpha: ALPHA });
  }, 60_000);
  afterAll(() => alone?.cleanup());

  const ask = (store: HybridStore, text: string, asked: RecallLevel[]) =>
    queryMemory(
      { text, projects: ['alpha'], levels: asked, limit: 5 },
      { items: store.items, vectors: store.vectors, embedder: store.embedder },
    );

  it("property: arbitrary content in another project leaves alpha's answer byte-identical (keyword and vector legs)", async () => {
    await fc.assert(
      fc.asyncProperty(otherProject, queryText, levels, async (beta, text, asked) => {
        const both = await hybridStore(pglite.db, { alpha: ALPHA, beta });
        try {
          const [expected, actual] = [await ask(alone, text, asked), await ask(both, text, asked)];
          expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
        } finally {
          await both.cleanup();
        }
      }),
      { numRuns: 20 },
    );
  }, 300_000);

  it("the query's own words in another project move neither alpha's scores nor its abstention", async () => {
    const flood = [
      run('b-run', 'L1', 'b'),
      ...Array.from({ length: 30 }, (_, i) => [
        evidence('b-run', i + 1, `kong ${i}`),
        memory('b-run', 'L1', i + 1, `- kong kong body ${i}`, [`kong ${i}`]),
      ]).flat(),
    ];
    const both = await hybridStore(pglite.db, { alpha: ALPHA, beta: flood });
    try {
      for (const text of ['kong body', 'garden hose week', 'zebra kong']) {
        expect(JSON.stringify(await ask(both, text, ['L1', 'L2']))).toBe(
          JSON.stringify(await ask(alone, text, ['L1', 'L2'])),
        );
      }
    } finally {
      await both.cleanup();
    }
  }, 60_000);
});
