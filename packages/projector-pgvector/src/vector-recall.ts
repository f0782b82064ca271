import { MemError } from '@mem/core';
import { vectorLiteral } from './apply/vector-literal.js';
import { embeddedDir, openBackend, type Backend } from './backend/open-backend.js';
import type { Sql } from './backend/sql.js';
import { backendConfig, type PgvectorBackendOptions } from './options.js';
import { PGVECTOR_VERSION } from './projector.js';
import { checkRecallInput } from './recall-input.js';
import type { RecallLevel, VectorHit, VectorKind, VectorRecall } from './recall-types.js';
import { quoteIdent } from './schema/identifiers.js';
import { readMeta } from './schema/prepare-schema.js';

export interface OpenVectorRecallOptions extends PgvectorBackendOptions {
  /** The state directory of the projection (`<root>/.mem`). */
  stateDir: string;
  /** The embedder name the caller embeds queries with: another one in the projection is CONFIG_INVALID. */
  expectEmbedder?: string;
}

/** Extra candidates fetched beyond `limit`, so ties at the cut are broken by key, not by scan order. */
const TIE_SLACK = 16;

/**
 * Opens the read side of the projection at `stateDir` (same backend options as the projector).
 * NOT_FOUND when there is none yet; PROJECTION_FAILED when another projector version wrote it.
 */
export async function openVectorRecall(options: OpenVectorRecallOptions): Promise<VectorRecall> {
  const backend = await openBackend(backendConfig(options), options.stateDir, { create: false });
  if (!backend) throw new MemError('NOT_FOUND', `no pgvector projection at ${embeddedDir(options.stateDir)}: run mem rebuild --from-log`, { stateDir: options.stateDir });
  try {
    const meta = await readMeta(backend.client, backend.schema);
    if (!meta) throw new MemError('NOT_FOUND', `no pgvector projection in ${backend.where}: run mem rebuild --from-log`, { stateDir: options.stateDir });
    if (meta['projector_version'] !== String(PGVECTOR_VERSION)) {
      throw new MemError('PROJECTION_FAILED', `the pgvector projection in ${backend.where} was written by projector version ${meta['projector_version']}, this is ${PGVECTOR_VERSION}: run mem rebuild --from-log`, {
        stored: meta['projector_version'],
        expected: PGVECTOR_VERSION,
      });
    }
    const embedder = meta['embedder'] ?? '?';
    if (options.expectEmbedder !== undefined && options.expectEmbedder !== embedder) {
      throw new MemError('CONFIG_INVALID', `the pgvector projection holds vectors of embedder ${embedder}, but queries are embedded with ${options.expectEmbedder}: rebuild it, or configure ${embedder}`, {
        projection: embedder,
        query: options.expectEmbedder,
      });
    }
    return recallOver(backend, Number(meta['dims']), embedder);
  } catch (error) {
    await backend.client.close();
    throw error;
  }
}

function recallOver(backend: Backend, dims: number, embedder: string): VectorRecall {
  const s = quoteIdent(backend.schema);
  // The kind is a literal, never a parameter: the planner only uses a partial index whose predicate it can prove.
  const sql = (kind: VectorKind) => `
    SELECT project, level, node_sha AS sha256, embedding <=> $1::vector AS distance
    FROM ${s}.memory_vector
    WHERE kind = '${kind}' AND live AND project = ANY($2::text[]) AND level = ANY($3::text[])
    ORDER BY embedding <=> $1::vector
    LIMIT $4`;
  const text = sql('text');
  const symptom = sql('symptom');
  return {
    async recall(kind, vector, filter, limit) {
      checkRecallInput(kind, vector, filter, limit, dims, embedder);
      const fetch = limit + TIE_SLACK;
      const params = [vectorLiteral(vector), [...filter.projects], [...filter.levels], fetch];
      const statement = kind === 'text' ? text : symptom;
      const rows = await backend.client.transaction(async (tx) => {
        await tuneScan(tx, backend, fetch);
        const found = await tx.query<Row>(statement, params);
        if (found.length >= fetch) return found;
        // Fewer than asked: either that is all there is, or the index scan gave up before the
        // filter let enough through. An exact scan of the filtered rows settles it.
        await tx.exec('SET LOCAL enable_indexscan = off');
        return tx.query<Row>(statement, params);
      });
      return rows
        .map((r) => ({ project: r.project, level: r.level, sha256: r.sha256, distance: Number(r.distance) }))
        .sort(byDistanceThenKey)
        .slice(0, limit);
    },
    close: () => backend.client.close(),
  };
}

interface Row {
  project: string;
  level: RecallLevel;
  sha256: string;
  distance: number | string;
}

/**
 * pgvector 0.8+: an iterative scan keeps walking the graph while the filter rejects candidates
 * (strict order: distances come out sorted). 0.7: a wider candidate list instead.
 */
async function tuneScan(tx: Sql, backend: Backend, fetch: number): Promise<void> {
  if (backend.extension.iterativeScan) await tx.exec(`SET LOCAL hnsw.iterative_scan = strict_order`);
  await tx.exec(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(100, fetch * 4))}`);
}

/** Distance, then project, level and sha byte-wise: the same hits in the same order on every backend. */
function byDistanceThenKey(a: VectorHit, b: VectorHit): number {
  if (a.distance !== b.distance) return a.distance - b.distance;
  for (const key of ['project', 'level', 'sha256'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}
