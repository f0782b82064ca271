import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmbedder } from '@mem/embed';
import type { ProjectionTarget } from '@mem/engine';
import { vectorLiteral } from './apply/vector-literal.js';
import { usePglite } from '../test/pglite-servers.js';
import { applyLogs, payload, tempTargets } from '../test/support.js';
import { projectorPgvector } from './projector.js';
import { quoteIdent, sharedSchemaFor } from './schema/identifiers.js';
import { EXACT_SCAN_MAX } from './vector-snapshot.js';

/*
 * An HNSW graph is shared by every project's rows: an approximate walk for project A visits,
 * and may stop early among, project B's rows, so A's hits would depend on B. Whenever another
 * project holds live vectors of the kind, recall_vectors answers by an exact scan of the
 * filtered rows; the index stays in use when the filter covers every project that has any.
 */

const embedder = hashEmbedder(16);
/** `count` live memories: each its own standing query, so none supersedes another. */
const memories = (project: string, count: number) =>
  Array.from({ length: count }, (_, i) => [
    payload.run(`${project}-r${i}`, `q${i}`),
    payload.evidence(`${project}-r${i}`, 1, `${project} evidence ${i}`),
    payload.memory(`${project}-r${i}`, 1, `${project} kong memory number ${i}`, [
      `${project} evidence ${i}`,
    ]),
  ]).flat();

describe('recall_vectors: a function of the reachable projects alone', () => {
  const shared = usePglite();
  const temp = tempTargets();
  let alone: ProjectionTarget;
  let mixed: ProjectionTarget;
  beforeAll(async () => {
    [alone, mixed] = [temp.target(), temp.target()];
    await applyLogs(projectorPgvector({ pglite: shared.db, embedder }), alone, {
      alpha: memories('alpha', 30),
    });
    await applyLogs(projectorPgvector({ pglite: shared.db, embedder }), mixed, {
      alpha: memories('alpha', 30),
      beta: memories('beta', 30),
    });
  }, 60_000);
  afterAll(() => temp.cleanup());

  /**
   * recall_vectors as the read side calls it: 18 rows wanted, fewer than alpha's 30 live vectors,
   * so the ANN path is open while `exactMax` (p_exact_max) is under 30; 0 is 0003's rules.
   */
  const recall = async (target: ProjectionTarget, projects: string[], exactMax = 0) => {
    const [query] = await embedder.embed(['kong memory'], 'query');
    const schema = quoteIdent(sharedSchemaFor(target.stateDir));
    const result = await shared.db.query<{
      exact: boolean;
      project: string;
      sha256: string;
      distance: number;
    }>(
      `SELECT exact, project, sha256, distance FROM ${schema}.recall_vectors('text', $1::vector, $2::text[], ARRAY['L1', 'L2'], 18, 100, false, $3) ORDER BY distance, sha256`,
      [vectorLiteral(query!), projects, exactMax],
    );
    return result.rows;
  };

  it('scans exactly when another project holds live vectors of the kind, and gives the same rows as alpha alone', async () => {
    const rows = await recall(mixed, ['alpha']);
    expect(rows.length).toBe(18);
    expect(rows.every((r) => r.exact && r.project === 'alpha')).toBe(true);
    const expected = (await recall(alone, ['alpha'])).map(({ project, sha256, distance }) => ({
      project,
      sha256,
      distance,
    }));
    expect(rows.map(({ project, sha256, distance }) => ({ project, sha256, distance }))).toEqual(
      expected,
    );
  });

  it('keeps the HNSW index when the filter covers every project that has vectors', async () => {
    expect((await recall(alone, ['alpha'])).some((r) => !r.exact)).toBe(true);
    expect((await recall(mixed, ['alpha', 'beta'])).some((r) => !r.exact)).toBe(true);
  });

  it('scans exactly, whoever holds vectors, when the filter passes at most p_exact_max rows; the same rows the HNSW path found here', async () => {
    for (const [target, projects] of [
      [alone, ['alpha']],
      [mixed, ['alpha', 'beta']],
    ] as const) {
      const exact = await recall(target, [...projects], EXACT_SCAN_MAX);
      expect(exact.length).toBe(18);
      expect(exact.every((r) => r.exact)).toBe(true);
      const strip = (rows: typeof exact) =>
        rows.map(({ project, sha256, distance }) => ({ project, sha256, distance }));
      expect(strip(exact)).toEqual(strip(await recall(target, [...projects], 0)));
    }
    // Past the threshold (30 rows > 29): the ANN path is open again.
    expect((await recall(alone, ['alpha'], 29)).some((r) => !r.exact)).toBe(true);
  });
});
