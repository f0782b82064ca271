import { existsSync } from 'node:fs';
import { memoryLines, splitMemoryLines, synthesisPrefix, type MemoryLineRef } from '@mem/core';
import {
  itemStorePath,
  openItemStore,
  projectorSqlite,
  type ItemStore,
  type NodeRow,
} from '@mem/projector-sqlite';
import type { PreviousMemory } from '@mem/extractor';
import type { L2Version } from './synthesis-steps.js';

/** What a new run of one query (or of the synthesis, queryId null) continues from. */
export interface PriorState {
  seen: Set<string>;
  previous: PreviousMemory | null;
  /** Per source, the record ordinal the query's earlier runs have read up to. */
  progress: Record<string, number>;
}

/**
 * The projections withItemStore reads, for `readCaughtUp`'s `reads`: the SQLite store alone, so
 * an ingest opens no embedded Postgres before its final catch-up (issue 15 target 5).
 */
export const ITEM_STORE_READS: readonly string[] = [projectorSqlite.name];

/** Reads the SQLite projection (caught up by the caller) for the loop's starting point. */
export function withItemStore<T>(stateDir: string, read: (store: ItemStore | null) => T): T {
  const path = itemStorePath(stateDir);
  if (!existsSync(path)) return read(null);
  const store = openItemStore(path);
  try {
    return read(store);
  } finally {
    store.close();
  }
}

export function priorState(
  store: ItemStore | null,
  project: string,
  queryId: string | null,
): PriorState {
  if (!store) return { seen: new Set(), previous: null, progress: {} };
  const seen = new Set(store.seenChunkShas(project, queryId));
  const head = store.memoryHead(project, queryId);
  return {
    seen,
    previous: head ? previousMemory(store, head) : null,
    progress: store.chunkProgress(project, queryId),
  };
}

/**
 * The memory a run continues from, with each line's own parents as its event logged them (the
 * item store keeps them in the memory's meta.lines), so a line kept by the next memory keeps
 * resting on its own chunks instead of on every parent of the memory.
 */
function previousMemory(store: ItemStore, head: NodeRow): PreviousMemory {
  const parents = store.edges(head.project, head.sha256, 'parents').map((e) => e.parent_sha);
  const refs = head.meta.lines as readonly MemoryLineRef[] | undefined;
  if (!refs) return { text: head.text, parents };
  return {
    text: head.text,
    parents,
    lines: memoryLines({ text: head.text, lines: refs }).map(({ text, parents: own }) => ({
      text,
      parents: own,
    })),
  };
}

/**
 * The head of a query's memory chain (L1), or of the project's synthesis (L2 when queryId is
 * null); a tombstoned head is no head: a run never continues from a forgotten memory.
 */
export function currentMemory(
  store: ItemStore,
  project: string,
  queryId: string | null,
): { text: string; sha256: string; seq: number } | null {
  const head = store.memoryHead(project, queryId);
  return head ? { text: head.text, sha256: head.sha256, seq: head.seq } : null;
}

/** Reference texts of the project: the derived-artifact manifest's input. */
export function referenceTexts(store: ItemStore | null, project: string): string[] {
  if (!store) return [];
  return store.nodes({ project, levels: ['R'] }).map((n) => n.text);
}

/**
 * The project's L2 chain, oldest first, each version with the L1 lines the standing queries'
 * notes held when it was written (each note's latest memory at or before the version's seq), as
 * a synthesis candidate reads them (`[query-id] line`): what retirements reads which held lines
 * the L2 retired. Memories a tombstone deleted are left out.
 */
export function l2Chain(store: ItemStore | null, project: string): L2Version[] {
  if (!store) return [];
  const bySeq = (a: NodeRow, b: NodeRow) => a.seq - b.seq;
  const l2 = store
    .nodes({ project, levels: ['L2'], kind: 'memory', includeSuperseded: true })
    .filter((node) => node.query_id === null)
    .sort(bySeq);
  if (l2.length < 2) return l2.map((node) => ({ text: node.text, l1: [] }));
  const l1 = store
    .nodes({ project, levels: ['L1'], kind: 'memory', includeSuperseded: true })
    .filter((node) => node.query_id !== null)
    .sort(bySeq);
  const heads = new Map<string, string>();
  let next = 0;
  return l2.map((version) => {
    for (; next < l1.length && l1[next]!.seq <= version.seq; next++)
      heads.set(l1[next]!.query_id!, l1[next]!.text);
    const lines = [...heads].flatMap(([queryId, text]) =>
      splitMemoryLines(text).map((line) =>
        synthesisPrefix(line) === '' ? `[${queryId}] ${line}` : line,
      ),
    );
    return { text: version.text, l1: lines };
  });
}
