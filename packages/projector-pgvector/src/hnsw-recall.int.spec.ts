import { afterAll, describe, expect, it } from 'vitest';
import { hashEmbed, hashEmbedder } from '@mem/embed';
import type { Payload } from '@mem/core';
import { usePglite } from '../test/pglite-servers.js';
import { applyLogs, payload, tempTargets } from '../test/support.js';
import { projectorPgvector } from './projector.js';
import { quoteIdent, sharedSchemaFor } from './schema/identifiers.js';
import { openVectorRecall } from './vector-recall.js';

const WORDS = [
  'kong',
  'ingress',
  'body',
  'buffer',
  'timeout',
  'postgres',
  'volume',
  'mount',
  'probe',
  'retry',
  'cache',
  'lock',
  'fsync',
  'kubectl',
  'helm',
  'flag',
  'namespace',
  'pod',
  'node',
  'disk',
];
const DIMS = 128;

/** A deterministic sentence per index: five words picked by a small LCG. */
function sentence(i: number, salt: number): string {
  let x = (i * 2654435761 + salt) >>> 0;
  const out: string[] = [];
  for (let k = 0; k < 5; k++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length]!);
  }
  return `${out.join(' ')} #${i}`;
}

describe('HNSW recall (measured against an exact scan, not asserted by order)', () => {
  const shared = usePglite();
  const temp = tempTargets();
  afterAll(() => temp.cleanup());

  it('finds most of the exact top 10 through the index', async () => {
    const refs: Payload[] = Array.from({ length: 3000 }, (_, i) =>
      payload.reference(sentence(i, 7)),
    );
    const target = temp.target();
    await applyLogs(
      projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(DIMS) }),
      target,
      { docs: refs },
    );
    const recall = await openVectorRecall({ pglite: shared.db, stateDir: target.stateDir });
    try {
      const queries = Array.from({ length: 40 }, (_, i) => hashEmbed(sentence(i, 99), DIMS));
      const filter = { projects: ['docs'], levels: ['R' as const] };
      const plan = await shared.db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT node_sha FROM ${quoteIdent(sharedSchemaFor(target.stateDir))}.memory_vector WHERE kind = 'text' AND live AND project = ANY('{docs}') AND level = ANY('{R}') ORDER BY embedding <=> '[${Array.from(queries[0]!).join(',')}]' LIMIT 26`,
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('memory_vector_text_hnsw');
      const approximate = [];
      for (const q of queries) approximate.push(await recall.recall('text', q, filter, 10));
      await shared.db.exec('SET enable_indexscan = off');
      let found = 0;
      try {
        for (const [i, q] of queries.entries()) {
          const exact = new Set((await recall.recall('text', q, filter, 10)).map((h) => h.sha256));
          found += approximate[i]!.filter((h) => exact.has(h.sha256)).length;
        }
      } finally {
        await shared.db.exec('RESET enable_indexscan');
      }
      const recallAt10 = found / (queries.length * 10);
      console.log(
        `HNSW recall@10 over ${queries.length} queries, 3000 vectors of ${DIMS} dims: ${recallAt10.toFixed(3)}`,
      );
      expect(recallAt10).toBeGreaterThanOrEqual(0.8);
    } finally {
      await recall.close();
    }
  });
});
