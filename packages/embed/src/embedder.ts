/**
 * Turns texts into vectors. Same name, same vectors: the name identifies the model and its
 * dimension (e.g. `hash-768`, `openai:nomic-embed-text:768`), so a cache or a projection keyed by
 * it never mixes vectors of two models.
 */
export interface Embedder {
  readonly name: string;
  readonly dims: number;
  /** One vector of `dims` float32 per text, in input order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Scores documents against a query (a cross-encoder behind /v1/rerank). */
export interface Reranker {
  readonly name: string;
  /** One score per document, in input order; higher is better. */
  rerank(query: string, documents: readonly string[]): Promise<number[]>;
}
