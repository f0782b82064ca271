/*
 * The vector side of a query, as its owners define it: embedders and rerankers are @mem/embed's,
 * the vector recall (filters inside the ANN query) is @mem/projector-pgvector's read side. Types
 * only: the query package never opens a database or calls a model itself.
 */

export type { EmbedRole, Embedder, Reranker } from '@mem/embed';
export type {
  RecallLevel,
  VectorHit,
  VectorKind,
  VectorLevel,
  VectorRecall,
} from '@mem/projector-pgvector';
import type { VectorLevel } from '@mem/projector-pgvector';

/**
 * A level a query recalls: the memory levels and `I`, curated items (issue 13 §1: one search
 * over lines and items), each by keyword and by vector.
 */
export type QueryLevel = VectorLevel;
