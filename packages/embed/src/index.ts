export type { EmbedRole, Embedder, Reranker } from './embedder.js';
export { knownPrefixes, NO_PREFIXES, type EmbedPrefixes } from './prefixes.js';
export { MAX_DIMS } from './dims.js';
export { HASH_WEIGHTS, hashEmbed, hashEmbedder } from './hash-embedder.js';
export {
  DEFAULT_EMBED_BATCH,
  DEFAULT_EMBED_DIMS,
  openaiEmbedder,
  type OpenaiEmbedderOptions,
} from './openai-embedder.js';
export { cachedEmbedder } from './cached-embedder.js';
export { cacheFileName } from './embedding-cache.js';
export { rerankClient } from './rerank-client.js';
export {
  embedDimsFromEnv,
  embedEndpointFromEnv,
  embedPrefixesFromEnv,
  embedderFromEnv,
  rerankerFromEnv,
} from './from-env.js';
