/** Which vector of a node: its text, or its symptom (the failures a memory explains). */
export type VectorKind = 'text' | 'symptom';

export type RecallLevel = 'L0' | 'L1' | 'L2' | 'R';

/** A level the index holds vectors at: the memory levels, and I, curated items (issue 13 §1). */
export type VectorLevel = RecallLevel | 'I';

/** One node found by similarity. */
export interface VectorHit {
  project: string;
  level: VectorLevel;
  sha256: string;
  /** Cosine distance, 0 = identical. */
  distance: number;
}

/** Which projects and levels a recall may return: applied inside the ANN query, never after it. */
export interface RecallFilter {
  projects: readonly string[];
  levels: readonly VectorLevel[];
}

/** One recall of a batch: a vector kind and its filter. */
export interface RecallRequest {
  kind: VectorKind;
  filter: RecallFilter;
}

/** The read side of the pgvector projection, for the query package. */
export interface VectorRecall {
  /**
   * Nearest nodes of `kind` to `vector`, with the project and level filters INSIDE the ANN query
   * (filter-then-recall), excluding deleted (tombstoned) and superseded nodes.
   */
  recall(
    kind: VectorKind,
    vector: Float32Array,
    filter: RecallFilter,
    limit: number,
  ): Promise<VectorHit[]>;
  /** Several recalls of one vector, each as `recall` answers it, in one round trip: hits per request, in order. */
  recallEach(
    vector: Float32Array,
    requests: readonly RecallRequest[],
    limit: number,
  ): Promise<VectorHit[][]>;
  close(): Promise<void>;
}
