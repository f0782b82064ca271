import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { hashEmbedder, type Embedder } from '@mem/embed';
import { Engine } from '@mem/engine';
import { openVectorRecall, projectorPgvector, type VectorRecall } from '@mem/projector-pgvector';
import {
  itemStorePath,
  openItemStore,
  projectorSqlite,
  type ItemStore,
} from '@mem/projector-sqlite';
import type { Payload } from './store.js';

/*
 * A data root with both projections a query reads: the real SQLite item store and the real
 * pgvector projection (on a PGlite the caller shares across roots: one schema per root).
 */

export interface HybridStore {
  items: ItemStore;
  vectors: VectorRecall;
  embedder: Embedder;
  cleanup(): Promise<void>;
}

/** Small vectors keep a property test's many roots cheap; the hash embedder is the embedded default. */
const DIMS = 64;

export async function hybridStore(
  pglite: PGlite,
  projects: Record<string, readonly Payload[]>,
): Promise<HybridStore> {
  const root = mkdtempSync(join(tmpdir(), 'mem-query-hybrid-'));
  const embedder = hashEmbedder(DIMS);
  const engine = new Engine({
    root,
    projectors: [projectorSqlite, projectorPgvector({ pglite, embedder })],
  });
  for (const [project, payloads] of Object.entries(projects))
    if (payloads.length > 0) await engine.append(project, payloads, { kind: 'test' });
  const items = openItemStore(itemStorePath(join(root, '.mem')));
  const vectors = await openVectorRecall({ pglite, stateDir: join(root, '.mem') });
  return {
    items,
    vectors,
    embedder,
    cleanup: async () => {
      items.close();
      await vectors.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
