import { createHash } from 'node:crypto';
import type { ItemStore, NodeRow } from '@mem/projector-sqlite';
import type {
  EmbedRole,
  Embedder,
  VectorHit,
  VectorKind,
  VectorLevel,
  VectorRecall,
} from '../src/ports.js';

/*
 * Fakes of the vector side that honour its contract: an embedder hashing words into a small
 * vector (bag of words: texts sharing no word are near-orthogonal), and a vector recall that
 * filters by project and level before it ranks (filter-then-recall), skipping deleted and
 * superseded nodes.
 */

const DIMS = 256;

/** A similarity floor that suits the fake embedder: unrelated texts score well below it. */
export const FAKE_MIN_SIMILARITY = 0.5;

export function fakeEmbedder(
  name = 'fake-bag-of-words',
): Embedder & { calls: number; roles: EmbedRole[] } {
  const embedder = {
    name,
    dims: DIMS,
    calls: 0,
    roles: [] as EmbedRole[],
    embed: async (texts: readonly string[], role: EmbedRole) => {
      embedder.calls += 1;
      embedder.roles.push(role);
      return texts.map(embedOne);
    },
  };
  return embedder;
}

function embedOne(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word === '') continue;
    const digest = createHash('sha256').update(word).digest();
    v[digest.readUInt16BE(0) % DIMS]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

interface Entry {
  project: string;
  level: VectorLevel;
  sha256: string;
  kind: VectorKind;
  vector: Float32Array;
}

export interface FakeVectorRecall extends VectorRecall {
  readonly calls: {
    kind: VectorKind;
    projects: readonly string[];
    levels: readonly VectorLevel[];
    limit: number;
  }[];
}

/**
 * An exact (brute-force) vector recall over every live node of the projects (text vectors) and
 * the given symptoms (symptom vectors, keyed by memory text), embedded by `embedder`. As in the
 * pgvector projection, L1/L2 vectors are lines: each live line gets its text, and the symptom
 * of the first live memory holding it that has one; whole memories get none; a curated item
 * its text while neither deleted nor archived.
 */
export async function fakeVectorRecall(
  items: ItemStore,
  projects: readonly string[],
  symptoms: Record<string, string> = {},
  embedder: Embedder = fakeEmbedder(),
): Promise<FakeVectorRecall> {
  const entries: Entry[] = [];
  for (const project of projects) {
    const lineSymptoms = new Map<string, string>();
    for (const memory of items.nodes({ project, kind: 'memory' })) {
      const symptom = symptoms[memory.text];
      if (symptom === undefined) continue;
      for (const line of (memory.meta.lines ?? []) as readonly { sha256: string }[]) {
        const key = `${memory.level}\u0000${line.sha256}`;
        if (!lineSymptoms.has(key)) lineSymptoms.set(key, symptom);
      }
    }
    const itemNodes = items.nodes({ project, kind: 'item' });
    const recallable = new Set(
      items
        .itemsById(
          [project],
          itemNodes.map((node) => node.meta.id as string),
        )
        .filter((row) => !row.deleted && row.attention !== 'archive')
        .map((row) => row.node_id),
    );
    const live = [
      // As the pgvector projection: no whole memory; an item while recall may return it.
      ...items.nodes({ project }).filter((node) => node.kind !== 'memory' && node.kind !== 'item'),
      ...items.nodes({ project, kind: 'line' }),
      ...itemNodes.filter((node) => recallable.has(node.id)),
    ] as (NodeRow & { level: VectorLevel })[];
    for (const node of live) {
      const symptom = lineSymptoms.get(`${node.level}\u0000${node.sha256}`);
      const [text, symptomVector] = await embedder.embed(
        symptom !== undefined && node.kind === 'line' ? [node.text, symptom] : [node.text],
        'document',
      );
      entries.push({
        project,
        level: node.level,
        sha256: node.sha256,
        kind: 'text',
        vector: text!,
      });
      if (symptomVector)
        entries.push({
          project,
          level: node.level,
          sha256: node.sha256,
          kind: 'symptom',
          vector: symptomVector,
        });
    }
  }
  const calls: FakeVectorRecall['calls'] = [];
  const recall: VectorRecall['recall'] = async (kind, vector, filter, limit) => {
    calls.push({ kind, projects: filter.projects, levels: filter.levels, limit });
    return entries
      .filter(
        (e) =>
          e.kind === kind && filter.projects.includes(e.project) && filter.levels.includes(e.level),
      )
      .map((e): VectorHit => ({
        project: e.project,
        level: e.level,
        sha256: e.sha256,
        distance: 1 - dot(e.vector, vector),
      }))
      .sort((a, b) => a.distance - b.distance || (a.sha256 < b.sha256 ? -1 : 1))
      .slice(0, limit);
  };
  return {
    calls,
    recall,
    recallEach: async (vector, requests, limit) =>
      Promise.all(requests.map(({ kind, filter }) => recall(kind, vector, filter, limit))),
    close: async () => {},
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i += 1) s += a[i]! * b[i]!;
  return s;
}
