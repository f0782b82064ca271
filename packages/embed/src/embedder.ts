/**
 * What a text is embedded as. Retrieval models trained with instructions (nomic-embed-text's
 * `search_query: ` / `search_document: `, e5's `query: ` / `passage: `) place a question and a
 * stored text differently; an embedder without prefixes treats both alike.
 */
export type EmbedRole = 'query' | 'document';

/**
 * Turns texts into vectors. Same name, same vectors: the name identifies the model and its
 * dimension, and the prefixes it puts before texts (e.g. `hash-768`, `openai:bge-small:384`,
 * `openai:nomic-embed-text:768:p<8 hex>`), so a cache or a projection keyed by it never mixes
 * vectors of two models.
 */
export interface Embedder {
  readonly name: string;
  readonly dims: number;
  /**
   * What else decides the vectors besides the name (the endpoint URL and prefixes of a served
   * model): two servers may serve different weights under one model name. Absent: the name says it all.
   */
  readonly scope?: string;
  /** One vector of `dims` float32 per text, in input order, each embedded as `role`. */
  embed(texts: readonly string[], role: EmbedRole): Promise<Float32Array[]>;
  /**
   * Drops whatever it keeps of these texts' vectors (a cache's records, either role): a
   * forgotten text must leave every file but the log (issue 12). Absent: it keeps nothing.
   */
  forget?(texts: readonly string[]): void;
}

/** Scores documents against a query (a cross-encoder behind /v1/rerank). */
export interface Reranker {
  readonly name: string;
  /** One score per document, in input order; higher is better. */
  rerank(query: string, documents: readonly string[]): Promise<number[]>;
}
