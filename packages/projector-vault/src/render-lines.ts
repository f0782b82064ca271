import { contentSha256, memoryLines, splitMemoryLines } from '@mem/core';
import type { MemoryRef, NoteFold, VaultFold } from './fold-state.js';
import { liveText } from './live-lines.js';
import { blockId } from './paths.js';
import { inertLinks, oneLine } from './text.js';

/**
 * Renders what one line rests on (its parents' shas) as links, sorted; tombstoned parents left
 * out. `shown` is the line as the note shows it (an L2 line's links find the L1 line it copies).
 */
export type LineSources = (parents: readonly string[], shown: string) => string[];

/**
 * A memory as its addressable lines: one list item per line that is not tombstoned or
 * forgotten, ending in
 * an Obsidian block id (`^<first 8 hex of the line's sha>`, `-2`, `-3`… for a repeated line),
 * so a person, a link or `mem vault capture` can name the line; under it one item naming the
 * chunks or notes that line came from — its own provenance, not the memory's.
 *
 * A superseded line shows its successor's text under its own block id and provenance: links to
 * the line keep resolving, and a line rewritten in Obsidian (captured as `superseded`) renders
 * back exactly as the person left it.
 */
export function renderMemoryLines(
  fold: VaultFold,
  memory: MemoryRef,
  sources: LineSources,
): string[] {
  const out: string[] = [];
  for (const block of memoryBlocks(fold, memory)) {
    const from = sources(block.parents, block.shown);
    out.push(`- ${inertLinks(oneLine(block.shown))} ^${block.block}`);
    out.push(
      `  - from ${from.length > 0 ? from.join('; ') : 'nothing left: what it rested on was removed by a tombstone'}`,
    );
  }
  return out.length > 0 ? out : ['Every line of this memory was removed by a tombstone.'];
}

/** One shown line of a memory: its block id, the line it is (sha), what it shows, what it rests on. */
export interface MemoryBlock {
  block: string;
  sha256: string;
  shown: string;
  parents: readonly string[];
}

/** The shown lines of a memory with their block ids, as renderMemoryLines numbers them. */
export function memoryBlocks(fold: VaultFold, memory: MemoryRef): MemoryBlock[] {
  const out: MemoryBlock[] = [];
  const ids = new Map<string, number>();
  for (const line of memoryLines(memory)) {
    const shown = liveText(fold, line.sha256, line.text);
    if (shown === null) continue;
    const base = blockId(line.sha256);
    const n = (ids.get(base) ?? 0) + 1;
    ids.set(base, n);
    out.push({
      block: n === 1 ? base : `${base}-${n}`,
      sha256: line.sha256,
      shown,
      parents: line.parents,
    });
  }
  return out;
}

/** A memory superseded as a whole: the replacing text line by line, resting on what the memory rested on. */
function successorLines(fold: VaultFold, memory: MemoryRef, sources: LineSources): string[] {
  const text = fold.superseded.get(memory.sha256)!.text;
  return renderMemoryLines(
    fold,
    {
      ...memory,
      text,
      lines: splitMemoryLines(text).map((line) => ({
        sha256: contentSha256(line),
        parents: [...memory.parents],
      })),
    },
    sources,
  );
}

/** The body of a note: its memory's lines, or an honest line saying why there are none. */
export function memoryBody(
  fold: VaultFold,
  note: NoteFold,
  missing: string,
  sources: LineSources,
): string[] {
  if (!note.memory) return [missing];
  const reason = fold.tombstones.get(note.memory.sha256);
  if (reason !== undefined) return [`Memory removed by a tombstone: ${oneLine(reason)}`];
  const forgotten = fold.forgotten.get(note.memory.sha256);
  if (forgotten !== undefined) return [`Memory forgotten: ${oneLine(forgotten)}`];
  if (fold.superseded.has(note.memory.sha256)) return successorLines(fold, note.memory, sources);
  return renderMemoryLines(fold, note.memory, sources);
}
