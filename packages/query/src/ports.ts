/*
 * The vector side of a query, as its owners define it: embedders and rerankers are @mem/embed's,
 * the vector recall (filters inside the ANN query) is @mem/projector-pgvector's read side. Types
 * only: the query package never opens a database or calls a model itself.
 */

export type { EmbedRole, Embedder, Reranker } from '@mem/embed';
export type { RecallLevel, VectorHit, VectorKind, VectorRecall } from '@mem/projector-pgvector';
import type { RecallLevel } from '@mem/projector-pgvector';

/**
 * A level a query recalls: the vector index's levels, and `I`, curated items (issue 13 §1:
 * one search over lines and items). Items are recalled by keyword only: the vector index
 * embeds no item (see ITEM_LEVEL).
 */
export type QueryLevel = RecallLevel | 'I';
