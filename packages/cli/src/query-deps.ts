import { hasErrorCode, type MemConfig } from '@mem/core';
import { embedderFromEnv, rerankerFromEnv } from '@mem/embed';
import type { Engine } from '@mem/engine';
import { holdEmbeddedPglite, openVectorRecall } from '@mem/projector-pgvector';
import { itemStorePath, openItemStore } from '@mem/projector-sqlite';
import { queryTuningFromEnv, type QueryDeps } from '@mem/query';

/** The read side a query needs, opened over a caught-up data root; close() releases it. */
export interface OpenQueryDeps {
  deps: QueryDeps;
  /** Why the vector side is missing, when it is (a line for stderr), else null. */
  vectorNote: string | null;
  close(): Promise<void>;
}

/**
 * Catches the data root up (the query side opens the store: on a fresh root it must exist
 * first), then opens the item store, and the pgvector projection's recall with the environment's embedder
 * (MEM_EMBED_URL: an OpenAI-compatible model, else the hash embedder) and reranker
 * (MEM_RERANK_URL, optional), and the floor and weights the environment sets (MEM_QUERY_FLOOR_*,
 * MEM_FUSION_WEIGHTS). A data root without a pgvector projection queries on keywords alone, and says why.
 * `oneShot`: the process ends after this query (a CLI command), so PGlite starts on V8's baseline
 * compiler.
 */
export async function openQueryDeps(
  engine: Engine,
  config: MemConfig,
  options?: { oneShot?: boolean },
): Promise<OpenQueryDeps>;
/**
 * `onlyIfFree`: a retry for the PGlite another process held (mem serve, mem mcp): null at the
 * cost of one lock attempt while it is still held, before any catch-up or open is run.
 */
export async function openQueryDeps(
  engine: Engine,
  config: MemConfig,
  options: { oneShot?: boolean; onlyIfFree: true },
): Promise<OpenQueryDeps | null>;
export async function openQueryDeps(
  engine: Engine,
  config: MemConfig,
  options: { oneShot?: boolean; onlyIfFree?: boolean } = {},
): Promise<OpenQueryDeps | null> {
  // One PGlite open for the catch-up and the recall both: the hold keeps it open between them.
  // A one-shot command compiles it for a quick start; a server keeps V8's optimizing tier.
  const hold = await holdEmbeddedPglite({
    stateDir: engine.paths.stateDir,
    config,
    quickStart: options.oneShot === true,
  });
  try {
    if (hold.busy && options.onlyIfFree) return null;
    await engine.catchUp();
    return await openCaughtUp(engine, config);
  } finally {
    await hold.release();
  }
}

async function openCaughtUp(engine: Engine, config: MemConfig): Promise<OpenQueryDeps> {
  const items = openItemStore(itemStorePath(engine.paths.stateDir));
  try {
    const embedder = embedderFromEnv(config);
    const tuning = queryTuningFromEnv(config);
    const reranker = rerankerFromEnv(config);
    let vectors: QueryDeps['vectors'] = null;
    let vectorNote: string | null = null;
    let vectorsUnavailable: QueryDeps['vectorsUnavailable'] = null;
    try {
      vectors = await openVectorRecall({
        stateDir: engine.paths.stateDir,
        config,
        expectEmbedder: embedder.name,
      });
    } catch (error) {
      // Trigger: no pgvector projection under this root (none was ever built), or another
      // process holds the embedded one (a running `mem serve`). Why: keyword recall alone still
      // answers. Outcome: keyword only, and a note on stderr saying why.
      if (hasErrorCode(error, 'NOT_FOUND'))
        vectorNote = `no vector projection under ${engine.paths.stateDir} (mem rebuild --from-log builds it): keyword recall only`;
      else if (hasErrorCode(error, 'CONFLICT')) {
        vectorNote = `${(error as Error).message}: keyword recall only`;
        // The answer says so too (recall.vector 'failed' with this error): an MCP or JSON
        // client never sees this stderr note.
        vectorsUnavailable = { code: 'CONFLICT', message: (error as Error).message };
      } else throw error;
    }
    return {
      deps: {
        items,
        vectors,
        embedder: vectors ? embedder : null,
        reranker,
        vectorsUnavailable,
        ...tuning,
      },
      vectorNote,
      close: async () => {
        items.close();
        await vectors?.close();
      },
    };
  } catch (error) {
    items.close();
    throw error;
  }
}
