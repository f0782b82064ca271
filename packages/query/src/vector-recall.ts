import { MemError } from '@mem/core';
import type { ItemStore } from '@mem/projector-sqlite';
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
 * The symptom kind is what lets a pasted error find a memory written as prose.
 */
export async function recallVectors(
  items: ItemStore,
  vectors: VectorRecall,
  embedder: Embedder,
  text: string,
  filter: RecallFilter,
  depth: number,
): Promise<VectorLists> {
  if (filter.projects.length === 0) return { text: [], symptom: [] };
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
  // Only memories carry a symptom (the memory event's field): without L1/L2 there is nothing to ask.
  const memoryLevels = filter.levels.filter((level) => level === 'L1' || level === 'L2');
  const [text_ = [], symptom = []] = await vectors.recallEach(
    vector,
    [
      { kind: 'text', filter },
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
  const toHits = (hits: typeof text_): SignalHit[] =>
    asLineHits(
      items,
      hits.map((hit) => ({
        key: { project: hit.project, level: hit.level, sha256: hit.sha256 },
        score: 1 - hit.distance,
      })),
    );
  return { text: toHits(text_), symptom: toHits(symptom) };
}

/**
 * Trigger: a vector hit on a whole L1/L2 memory (the pgvector projection still embeds memories,
 * not lines). Why: an L1/L2 answer is a line (issue 11 §3), and dropping the hit would switch
 * the vector side off for memories. Outcome: the hit stands for each of the memory's lines, in
 * order, at the memory's similarity; a line already hit by a nearer memory keeps that place.
 * Goes away once the vector index holds line vectors.
 */
function asLineHits(items: ItemStore, hits: readonly SignalHit[]): SignalHit[] {
  const out: SignalHit[] = [];
  const seen = new Set<string>();
  const push = (hit: SignalHit) => {
    const id = `${hit.key.project}\u0000${hit.key.level}\u0000${hit.key.sha256}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(hit);
  };
  for (const hit of hits) {
    const { project, level, sha256 } = hit.key;
    const memory =
      level === 'L1' || level === 'L2' ? items.node(project, sha256, level, 'memory') : undefined;
    if (!memory) {
      push(hit);
      continue;
    }
    // A retired memory's hit is one the recall should not have returned: its lines answer only through a live memory.
    if (memory.superseded_by !== null || memory.deleted_at !== null) continue;
    for (const line of lineShas(memory.meta))
      push({ ...hit, key: { project, level, sha256: line } });
  }
  return out;
}

/** The memory's line shas, in order: its projected `meta.lines` (every memory event carries lines; v1 lines are upcast with them). */
function lineShas(meta: Record<string, unknown>): string[] {
  return ((meta.lines ?? []) as readonly { sha256: string }[]).map((line) => line.sha256);
}
