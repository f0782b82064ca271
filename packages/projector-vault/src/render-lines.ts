import { contentSha256, splitMemoryLines } from '@mem/core';
import type { AddedLineRef, MemoryRef, NoteFold, VaultFold } from './fold-state.js';
import { noteEntries } from './note-entries.js';
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
 * back exactly as the person left it. A line added in Obsidian (`line_added`) renders exactly
 * as written, `- <text>` with no block id nor provenance, so the captured note is the edited one
 * byte for byte; capture knows it by its text and place (noteEntries).
 */
export function renderMemoryLines(
  fold: VaultFold,
  memory: MemoryRef | null,
  sources: LineSources,
  added: readonly AddedLineRef[] = [],
): string[] {
  const out: string[] = [];
  for (const entry of noteEntries(fold, memory, added)) {
    if (entry.kind === 'added') {
      out.push(`- ${entry.shown}`);
      continue;
    }
    const { block } = entry;
    const from = sources(block.parents, block.shown);
    out.push(`- ${inertLinks(oneLine(block.shown))} ^${block.block}`);
    out.push(
      `  - from ${from.length > 0 ? from.join('; ') : 'nothing left: what it rested on was removed by a tombstone'}`,
    );
  }
  return out.length > 0 ? out : ['Every line of this memory was removed by a tombstone.'];
}

/** A memory superseded as a whole: the replacing text line by line, resting on what the memory rested on. */
function successorLines(
  fold: VaultFold,
  memory: MemoryRef,
  sources: LineSources,
  added: readonly AddedLineRef[],
): string[] {
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
    added,
  );
}

/** The body of a note: its memory's lines, or an honest line saying why there are none. */
export function memoryBody(
  fold: VaultFold,
  note: NoteFold,
  missing: string,
  sources: LineSources,
): string[] {
  const added = note.added ?? [];
  // With no memory line to show, the lines added in the vault still show, after the reason.
  const alone = (line: string) => [line, ...(added.length > 0 ? addedOnly(fold, added) : [])];
  if (!note.memory) return alone(missing);
  const reason = fold.tombstones.get(note.memory.sha256);
  if (reason !== undefined) return alone(`Memory removed by a tombstone: ${oneLine(reason)}`);
  const forgotten = fold.forgotten.get(note.memory.sha256);
  if (forgotten !== undefined) return alone(`Memory forgotten: ${oneLine(forgotten)}`);
  if (fold.superseded.has(note.memory.sha256))
    return successorLines(fold, note.memory, sources, added);
  return renderMemoryLines(fold, note.memory, sources, added);
}

function addedOnly(fold: VaultFold, added: readonly AddedLineRef[]): string[] {
  return noteEntries(fold, null, added).map((entry) =>
    entry.kind === 'added' ? `- ${entry.shown}` : '',
  );
}
