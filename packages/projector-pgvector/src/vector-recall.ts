import { MemError } from '@mem/core';
import { vectorLiteral } from './apply/vector-literal.js';
import { embeddedDir, openBackend, type Backend } from './backend/open-backend.js';
import { backendConfig, type PgvectorBackendOptions } from './options.js';
import { PGVECTOR_VERSION } from './projector.js';
import { checkRecallInput } from './recall-input.js';
import type { VectorLevel, VectorRecall } from './recall-types.js';
import { quoteIdent } from './schema/identifiers.js';
import { loadMigrations } from './schema/migrations.js';
import { readMeta } from './schema/prepare-schema.js';
import { byDistanceThenKey, EXACT_SCAN_MAX, TIE_SLACK, VectorSnapshot } from './vector-snapshot.js';

export interface OpenVectorRecallOptions extends PgvectorBackendOptions {
  /** The state directory of the projection (`<root>/.mem`). */
  stateDir: string;
  /** The embedder name the caller embeds queries with: another one in the projection is CONFIG_INVALID. */
  expectEmbedder?: string;
  /**
   * Filters that pass at most this many live vectors are answered by an exact scan (default
   * EXACT_SCAN_MAX). Tests only: 0 keeps the HNSW rules for any filter that passes enough rows.
   */
  exactScanMax?: number;
}

/**
 * Opens the read side of the projection at `stateDir` (same backend options as the projector).
 * NOT_FOUND when there is none yet; PROJECTION_FAILED when another projector version wrote it.
 */
export async function openVectorRecall(options: OpenVectorRecallOptions): Promise<VectorRecall> {
  const backend = await openBackend(backendConfig(options), options.stateDir, { create: false });
  if (!backend)
    throw new MemError(
      'NOT_FOUND',
      `no pgvector projection at ${embeddedDir(options.stateDir)}: run mem rebuild --from-log`,
      { stateDir: options.stateDir },
    );
  try {
    const meta = await readMeta(backend.client, backend.schema);
    if (!meta)
      throw new MemError(
        'NOT_FOUND',
        `no pgvector projection in ${backend.where}: run mem rebuild --from-log`,
        { stateDir: options.stateDir },
      );
    if (meta['projector_version'] !== String(PGVECTOR_VERSION)) {
      throw new MemError(
        'PROJECTION_FAILED',
        `the pgvector projection in ${backend.where} was written by projector version ${meta['projector_version']}, this is ${PGVECTOR_VERSION}: run mem rebuild --from-log`,
        {
          stored: meta['projector_version'],
          expected: PGVECTOR_VERSION,
        },
      );
    }
    // Trigger: mem was upgraded and its migrations changed, but no projector has opened the
    // projection since (opening rebuilds it). Outcome: a clear error instead of a missing function.
    if (meta['schema_fingerprint'] !== loadMigrations().fingerprint) {
      throw new MemError(
        'PROJECTION_FAILED',
        `the pgvector projection in ${backend.where} was written by other migrations than this mem's: run mem rebuild --from-log`,
        {
          stateDir: options.stateDir,
        },
      );
    }
    const embedder = meta['embedder'] ?? '?';
    if (options.expectEmbedder !== undefined && options.expectEmbedder !== embedder) {
      throw new MemError(
        'CONFIG_INVALID',
        `the pgvector projection holds vectors of embedder ${embedder}, but queries are embedded with ${options.expectEmbedder}: rebuild it, or configure ${embedder}`,
        {
          projection: embedder,
          query: options.expectEmbedder,
        },
      );
    }
    return recallOver(
      backend,
      Number(meta['dims']),
      embedder,
      options.exactScanMax ?? EXACT_SCAN_MAX,
    );
  } catch (error) {
    await backend.client.close();
    throw error;
  }
}

function recallOver(
  backend: Backend,
  dims: number,
  embedder: string,
  exactScanMax: number,
): VectorRecall {
  const s = quoteIdent(backend.schema);
  const { client } = backend;
  // A read where the client has one: it leaves SqlClient.changes where it was, so recalls the
  // database answers do not drop the copy.
  const query = <Row>(text: string, params: readonly unknown[]) =>
    client.read ? client.read<Row>(text, params) : client.query<Row>(text, params);
  // The copy answers what the exact scan would: only where the threshold is the one it mirrors.
  const snapshot =
    client.changes && client.read && exactScanMax === EXACT_SCAN_MAX
      ? new VectorSnapshot({ changes: client.changes, read: query, schema: s })
      : null;
  const recallEach: VectorRecall['recallEach'] = async (vector, requests, limit) => {
    for (const { kind, filter } of requests)
      checkRecallInput(kind, vector, filter, limit, dims, embedder);
    if (requests.length === 0) return [];
    const copied = await snapshot?.recallEach(vector, requests, limit);
    if (copied) return copied;
    const fetch = limit + TIE_SLACK;
    const efSearch = Math.min(1000, Math.max(100, fetch * 4));
    // recall_vectors (migrations/postgres/0009_recall_exact_below.sql) once per request, all in one statement:
    // in PGlite a statement's fixed cost (~0.5-1 ms with a vector parameter) is most of a recall.
    const params: unknown[] = [
      vectorLiteral(vector),
      fetch,
      efSearch,
      backend.extension.iterativeScan,
      exactScanMax,
    ];
    const selects = requests.map(({ kind, filter }, i) => {
      params.push(kind, [...filter.projects], [...filter.levels]);
      const [k, projects, levels] = [params.length - 2, params.length - 1, params.length];
      return `SELECT ${i} AS request, r.* FROM ${s}.recall_vectors($${k}, $1::vector, $${projects}::text[], $${levels}::text[], $2, $3, $4, $5) r`;
    });
    const rows = await query<Row>(selects.join(' UNION ALL '), params);
    return requests.map((_, i) => {
      const mine = rows.filter((r) => r.request === i);
      // Exact rows, when the function ran an exact scan, are the answer; else the ANN rows are.
      const exact = mine.filter((r) => r.exact);
      return (exact.length > 0 ? exact : mine)
        .map((r) => ({
          project: r.project,
          level: r.level,
          sha256: r.sha256,
          distance: Number(r.distance),
        }))
        .sort(byDistanceThenKey)
        .slice(0, limit);
    });
  };
  return {
    recallEach,
    async recall(kind, vector, filter, limit) {
      const [hits] = await recallEach(vector, [{ kind, filter }], limit);
      return hits!;
    },
    close: () => backend.client.close(),
  };
}

interface Row {
  request: number;
  exact: boolean;
  project: string;
  level: VectorLevel;
  sha256: string;
  distance: number | string;
}
