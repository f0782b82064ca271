import { memoryLines } from '@mem/core';
import type { AddedLineRef, MemoryRef, VaultFold } from './fold-state.js';
import { liveText } from './live-lines.js';
import { blockId } from './paths.js';

/** One shown line of a memory: its block id, the line it is (sha), what it shows, what it rests on. */
export interface MemoryBlock {
  block: string;
  sha256: string;
  shown: string;
  parents: readonly string[];
}

/** A line of a note's list: a memory line (with its block id) or a line added in the vault. */
export type NoteEntry =
  { kind: 'memory'; block: MemoryBlock } | { kind: 'added'; sha256: string; shown: string };

/**
 * Every line of a memory in order, each with its shown block or null when it shows nothing
 * (forgotten, tombstoned): block ids count repeats (`-2`, `-3`…) over the shown lines only.
 */
function memorySlots(
  fold: VaultFold,
  memory: MemoryRef,
): { sha256: string; block: MemoryBlock | null }[] {
  const ids = new Map<string, number>();
  return memoryLines(memory).map((line) => {
    const shown = liveText(fold, line.sha256, line.text);
    if (shown === null) return { sha256: line.sha256, block: null };
    const base = blockId(line.sha256);
    const n = (ids.get(base) ?? 0) + 1;
    ids.set(base, n);
    const block = n === 1 ? base : `${base}-${n}`;
    return {
      sha256: line.sha256,
      block: { block, sha256: line.sha256, shown, parents: line.parents },
    };
  });
}

/** The shown lines of a memory with their block ids, as the note numbers them. */
export function memoryBlocks(fold: VaultFold, memory: MemoryRef): MemoryBlock[] {
  return memorySlots(fold, memory).flatMap((slot) => (slot.block ? [slot.block] : []));
}

/**
 * A note's list: its memory's shown lines, each followed by the lines added under it (and the
 * lines added under those), so an added line renders where the person wrote it. Lines added
 * under a line the memory no longer holds (a new memory replaced it) follow at the end, in log
 * order. A line added under a hidden line keeps its place; one forgotten shows nothing, but
 * what was added under it still shows.
 */
export function noteEntries(
  fold: VaultFold,
  memory: MemoryRef | null,
  added: readonly AddedLineRef[],
): NoteEntry[] {
  const out: NoteEntry[] = [];
  const placed = new Set<AddedLineRef>();
  const under = (sha: string | null): void => {
    for (const line of added) {
      if (placed.has(line) || line.after !== sha) continue;
      placed.add(line);
      const shown = liveText(fold, line.sha256, line.text);
      if (shown !== null) out.push({ kind: 'added', sha256: line.sha256, shown });
      under(line.sha256);
    }
  };
  under(null);
  for (const slot of memory ? memorySlots(fold, memory) : []) {
    if (slot.block) out.push({ kind: 'memory', block: slot.block });
    under(slot.sha256);
  }
  for (const line of added) {
    if (placed.has(line)) continue;
    placed.add(line);
    const shown = liveText(fold, line.sha256, line.text);
    if (shown !== null) out.push({ kind: 'added', sha256: line.sha256, shown });
    under(line.sha256);
  }
  return out;
}
