import { MemError } from '@mem/core';
import { vectorLiteral } from './apply/vector-literal.js';
import { embeddedDir, openBackend, type Backend } from './backend/open-backend.js';
import { backendConfig, type PgvectorBackendOptions } from './options.js';
import { PGVECTOR_VERSION } from './projector.js';
import { checkRecallInput } from './recall-input.js';
import type { RecallLevel, VectorHit, VectorRecall } from './recall-types.js';
import { quoteIdent } from './schema/identifiers.js';
import { loadMigrations } from './schema/migrations.js';
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
    // Trigger: mem was upgraded and its migrations changed, but no projector has opened the
    // projection since (opening rebuilds it). Outcome: a clear error instead of a missing function.
    if (meta['schema_fingerprint'] !== loadMigrations().fingerprint) {
      throw new MemError('PROJECTION_FAILED', `the pgvector projection in ${backend.where} was written by other migrations than this mem's: run mem rebuild --from-log`, {
        stateDir: options.stateDir,
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
  // recall_vectors (migrations/postgres/0003_reads.sql): the ANN scan and, when it comes back
  // short, an exact scan, in one round trip.
  const statement = `SELECT exact, project, level, sha256, distance FROM ${quoteIdent(backend.schema)}.recall_vectors($1, $2::vector, $3::text[], $4::text[], $5, $6, $7)`;
  return {
    async recall(kind, vector, filter, limit) {
      checkRecallInput(kind, vector, filter, limit, dims, embedder);
      const fetch = limit + TIE_SLACK;
      const efSearch = Math.min(1000, Math.max(100, fetch * 4));
      const rows = await backend.client.query<Row>(statement, [kind, vectorLiteral(vector), [...filter.projects], [...filter.levels], fetch, efSearch, backend.extension.iterativeScan]);
      const exact = rows.filter((r) => r.exact);
      return (exact.length > 0 ? exact : rows)
        .map((r) => ({ project: r.project, level: r.level, sha256: r.sha256, distance: Number(r.distance) }))
        .sort(byDistanceThenKey)
        .slice(0, limit);
    },
    close: () => backend.client.close(),
  };
}

interface Row {
  exact: boolean;
  project: string;
  level: RecallLevel;
  sha256: string;
  distance: number | string;
}

/** Distance, then project, level and sha byte-wise: the same hits in the same order on every backend. */
function byDistanceThenKey(a: VectorHit, b: VectorHit): number {
  if (a.distance !== b.distance) return a.distance - b.distance;
  for (const key of ['project', 'level', 'sha256'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}
