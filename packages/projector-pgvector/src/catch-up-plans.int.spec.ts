import { afterAll, describe, expect, it } from 'vitest';
import type { Payload } from '@mem/core';
import { hashEmbedder } from '@mem/embed';
import { projectStretch } from '@mem/engine';
import { usePglite } from '../test/pglite-servers.js';
import { chainEvents, payload, projected, tempTargets } from '../test/support.js';
import { projectorPgvector } from './projector.js';
import { sharedSchemaFor } from './schema/identifiers.js';

/*
 * A catch-up applies batch after batch in one session, and the write functions keep the generic
 * plan they made on their first call, when the tables were empty: without fresh statistics, a
 * lookup reads a range that grows with the store, and each batch costs O(store). The query
 * bench's 120 k-node store took 108 minutes of catch-up (~18 nodes/s) that way. Measured here as
 * the tuples Postgres read (pg_stat_user_tables and _indexes) while applying the last batch, mid
 * catch-up (no seal), after 60 chains of memories and after 300, each applied 110 events a batch
 * as the engine hands them. Before: 77 k and 380 k tuples (4.9x); with the per-batch ANALYZE of
 * grown tables, 68 k and 75 k.
 */
const shared = usePglite();
const BATCH = 110;

function chains(count: number): Payload[] {
  const events: Payload[] = [];
  for (let c = 0; c < count; c++) {
    events.push(payload.run(`r${c}`, `query-${c}`));
    for (let t = 1; t <= 5; t++) {
      const evidence = `evidence ${c} ${t}: the deploy of service ${c} failed at step ${t}`;
      events.push(payload.evidence(`r${c}`, t, evidence));
      events.push(payload.memory(`r${c}`, t, `- service ${c} failed at step ${t}`, [evidence]));
    }
  }
  return events;
}

describe('catch-up write plans', () => {
  const temp = tempTargets();
  afterAll(() => temp.cleanup());

  /** Tuples read (sequential and by index) while the last batch of `count` chains is applied. */
  async function tuplesReadByLastBatch(count: number): Promise<number> {
    const target = temp.target();
    const projector = projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(16) });
    const handle = await projector.init(target);
    const read = async () => {
      // Statistics reach the views when the backend next goes idle: flush them first.
      await shared.db.query('SELECT pg_stat_force_next_flush()');
      const { rows } = await shared.db.query<{ n: number }>(
        `SELECT (SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_user_tables WHERE schemaname = $1)::int
              + (SELECT coalesce(sum(idx_tup_read), 0) FROM pg_stat_user_indexes WHERE schemaname = $1)::int AS n`,
        [sharedSchemaFor(target.stateDir)],
      );
      return rows[0]!.n;
    };
    try {
      const events = projected(chainEvents('demo', chains(count)));
      const last = events.length - BATCH;
      for (let i = 0; i < last; i += BATCH)
        await projectStretch(projector, handle, 'demo', events.slice(i, Math.min(i + BATCH, last)));
      const before = await read();
      await projectStretch(projector, handle, 'demo', events.slice(last));
      return (await read()) - before;
    } finally {
      await projector.close(handle);
    }
  }

  it('reads about as many tuples for a batch after 300 chains as after 60 (4.9x before)', async () => {
    const short = await tuplesReadByLastBatch(60);
    const long = await tuplesReadByLastBatch(300);
    expect(short).toBeGreaterThan(0);
    expect(long / short).toBeLessThan(2);
  });

  it('sets the HNSW indexes aside for a first batch of 300 vectors and builds them at seal', async () => {
    // 1,020-event batches of the query bench's 5 k store held ~900 vectors each, under the old
    // threshold of 1,000: every vector went into a live HNSW graph, 97 s of a 5 k-node catch-up
    // instead of 18 s (load ~10).
    const target = temp.target();
    const projector = projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(16) });
    const handle = await projector.init(target);
    const hnsw = async () =>
      (
        await shared.db.query<{ indexname: string }>(
          `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '% USING hnsw %' ORDER BY 1`,
          [sharedSchemaFor(target.stateDir)],
        )
      ).rows.map((r) => r.indexname);
    const refs = Array.from({ length: 300 }, (_, i) => payload.reference(`passage ${i} on flags`));
    try {
      await projectStretch(projector, handle, 'docs', projected(chainEvents('docs', refs)));
      expect(await hnsw()).toEqual([]);
      await projector.seal(handle);
      expect(await hnsw()).toEqual(['memory_vector_symptom_hnsw', 'memory_vector_text_hnsw']);
    } finally {
      await projector.close(handle);
    }
  });
});
