import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '@mem/core';
import { embedderFromEnv } from '@mem/embed';
import type { LeakObservation } from '@mem/eval';
import { filesUnder, filesHolding } from './leak-search.js';

/** Floats of the vector searched for: they fit in a TOAST chunk (~2000 bytes) with pgvector's header. */
const PREFIX_FLOATS = 480;

/**
 * Looks for a vector of `text` where vectors are kept: the embedded Postgres's files (rows and
 * HNSW pages) and the embedding cache. An embedding is not the text, so the byte search misses
 * it, yet inversion reads much of the text back (issue 12). Searched for: the cache's keys of the
 * text (document and query role) and the leading float32 bytes of its vector, embedded as the
 * scratch root's children embed it (no MEM_EMBED_* reaches them: the default embedder). Why a
 * prefix: a vector over ~2 KB is stored out of line in chunks, so only a chunk is contiguous.
 */
export async function vectorSearch(root: string, text: string): Promise<LeakObservation> {
  const [vector] = await embedderFromEnv({}).embed([text], 'document');
  const floats = vector!.subarray(0, PREFIX_FLOATS);
  const needles = [
    Buffer.from(sha256Hex(text), 'hex'),
    Buffer.from(sha256Hex(`query\u0000${text}`), 'hex'),
    Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength),
  ];
  const stores = [join('.mem', 'pg'), join('.mem', 'cache', 'embeddings')];
  const searched = stores
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) => filesUnder(join(root, dir)).map((file) => join(dir, file)));
  return { searched_files: searched, holding: filesHolding(root, searched, needles) };
}
