import { resolve } from 'node:path';
import type { Projector } from '@mem/engine';
import { analyzeIfStale } from './apply/analyze.js';
import { applyBatch } from './apply/apply-batch.js';
import { restoreDeferredIndexes } from './apply/deferred-indexes.js';
import { scrubForgottenText } from './apply/scrub-forgotten.js';
import { statementSql } from './apply/statements.js';
import { openBackend } from './backend/open-backend.js';
import { digestTables } from './digest.js';
import { namingFullDisk, projectionLocation } from './disk-full.js';
import type { PgvectorHandle } from './handle.js';
import { backendConfig, embedderSource, type PgvectorOptions } from './options.js';
import { PGVECTOR_HANDLES } from './plan/plan-event.js';
import { readPosition } from './position.js';
import { resetProjection } from './reset.js';
import { loadMigrations } from './schema/migrations.js';
import { prepareSchema } from './schema/prepare-schema.js';

/** Bump when the same log would give different rows (planner, statements, normaliser). */
export const PGVECTOR_VERSION = 5;

/**
 * The pgvector projection: memory nodes and their lines, provenance edges, text and symptom
 * vectors (per line at L1/L2, per curated item at I), failure signatures and supersessions, in PGlite under
 * `<stateDir>/pg/` or in Postgres at DATABASE_URL.
 */
export function projectorPgvector(options: PgvectorOptions = {}): Projector<PgvectorHandle> {
  const config = backendConfig(options);
  const embedderFor = embedderSource(options);
  return {
    name: 'pgvector',
    version: PGVECTOR_VERSION,
    handles: PGVECTOR_HANDLES,
    // Off a write's path (issue 13 §6): a vector read catches it up before it answers.
    deferred: true,
    async init(target) {
      const embedder = embedderFor(target.stateDir);
      const location = projectionLocation(config, target.stateDir);
      const backend = await namingFullDisk(location, 'open', () =>
        openBackend(config, target.stateDir, { create: true }),
      );
      try {
        const identity = {
          projectorVersion: PGVECTOR_VERSION,
          embedder: embedder.name,
          dims: embedder.dims,
        };
        await namingFullDisk(location, 'prepare', async () => {
          await prepareSchema(
            backend.client,
            backend.schema,
            identity,
            loadMigrations(),
            resolve(target.stateDir),
          );
          await restoreDeferredIndexes(backend.client, backend.schema);
        });
      } catch (error) {
        await backend.client.close();
        throw error;
      }
      const embedded = Boolean(config.pglite) || !config.databaseUrl;
      return {
        backend,
        sql: statementSql(backend.schema),
        embedder,
        location,
        embedded,
        forgot: false,
      };
    },
    async position(handle, project) {
      return readPosition(handle.backend.client, handle.sql, project);
    },
    async project(handle, project, batch) {
      await namingFullDisk(handle.location, 'write', () => applyBatch(handle, project, batch));
      if (batch.events.some(({ event }) => event.type === 'forgotten')) handle.forgot = true;
    },
    async seal(handle) {
      // Every batch committed on its own; sealing builds what a load set aside and refreshes stale statistics.
      const { client, schema } = handle.backend;
      await namingFullDisk(handle.location, 'seal', async () => {
        await restoreDeferredIndexes(client, schema);
        await analyzeIfStale(client, schema);
        if (handle.embedded && handle.forgot) await scrubForgottenText(client, schema);
      });
      handle.forgot = false;
    },
    async outputs() {
      return [];
    },
    async digest(handle) {
      return digestTables(handle.backend.client, handle.backend.schema);
    },
    async close(handle) {
      await handle.backend.client.close();
    },
    async reset(target, project) {
      await resetProjection(config, target.stateDir, project);
    },
  };
}
