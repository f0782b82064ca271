/** Which vector of a node: its text, or its symptom (the failures a memory explains). */
export type VectorKind = 'text' | 'symptom';

export type RecallLevel = 'L0' | 'L1' | 'L2' | 'R';

/** One node found by similarity. */
export interface VectorHit {
  project: string;
  level: RecallLevel;
  sha256: string;
  /** Cosine distance, 0 = identical. */
  distance: number;
}

/** The read side of the pgvector projection, for the query package. */
export interface VectorRecall {
  /**
   * Nearest nodes of `kind` to `vector`, with the project and level filters INSIDE the ANN query
   * (filter-then-recall), excluding deleted (tombstoned) and superseded nodes.
   */
  recall(kind: VectorKind, vector: Float32Array, filter: { projects: readonly string[]; levels: readonly RecallLevel[] }, limit: number): Promise<VectorHit[]>;
  close(): Promise<void>;
}
