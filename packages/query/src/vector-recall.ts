import { MemError } from '@mem/core';
import type { SignalHit } from './fusion.js';
import type { RecallFilter } from './keyword-recall.js';
import type { Embedder, VectorRecall } from './ports.js';

/** Text-vector and symptom-vector hits of one query embedding, nearest first. */
export interface VectorLists {
  text: SignalHit[];
  symptom: SignalHit[];
}

/**
 * Embeds the query once and recalls both vector kinds with the filters inside the ANN query.
 * The symptom kind is what lets a pasted error find a memory written as prose. An item has a
 * text vector only: a hit on one is the item's node (its node sha, as the item store keys it).
 */
export async function recallVectors(
  vectors: VectorRecall,
  embedder: Embedder,
  text: string,
  filter: RecallFilter,
  depth: number,
): Promise<VectorLists> {
  // Curated items (level I) are embedded beside lines (issue 13 §1): the index is asked every level.
  const { levels } = filter;
  if (filter.projects.length === 0 || levels.length === 0) return { text: [], symptom: [] };
  const [vector] = await embedder.embed([text], 'query');
  if (!vector || vector.length !== embedder.dims) {
    throw new MemError(
      'MODEL_FAILED',
      `embedder ${embedder.name}: expected one vector of ${embedder.dims} dimensions, got ${vector ? vector.length : 'none'}`,
      {
        embedder: embedder.name,
      },
    );
  }
  // Only memories carry a symptom (the memory event's field, on their lines): without L1/L2 there is nothing to ask.
  const memoryLevels = levels.filter((level) => level === 'L1' || level === 'L2');
  const [text_ = [], symptom = []] = await vectors.recallEach(
    vector,
    [
      { kind: 'text', filter: { projects: filter.projects, levels } },
      ...(memoryLevels.length > 0
        ? [
            {
              kind: 'symptom' as const,
              filter: { projects: filter.projects, levels: memoryLevels },
            },
          ]
        : []),
    ],
    depth,
  );
  // At L1/L2 a hit is a line already: the projection embeds lines, not whole memories.
  const toHits = (hits: typeof text_): SignalHit[] =>
    hits.map((hit) => ({
      key: { project: hit.project, level: hit.level, sha256: hit.sha256 },
      score: 1 - hit.distance,
    }));
  return { text: toHits(text_), symptom: toHits(symptom) };
}
