import type { LogEvent } from '@mem/core';
import { emptyFold, type NoteFold, type VaultFold } from './fold-state.js';
import { applyEvent, vaultHandles } from './fold.js';
import { notePath } from './notes.js';
import { renderNote } from './notes.js';
import type { RenderOptions } from './render-query.js';
import { memoryBlocks, noteEntries } from './note-entries.js';

/** An L1/L2 note as the log projects it: its path, bytes, and block id → the line sha it shows. */
export interface ProjectedNote {
  path: string;
  bytes: string;
  blocks: Map<string, string>;
  /** Which note it is, as a `line_added` event names it. */
  level: 'L1' | 'L2';
  query_id: string | null;
  /** The lines added in the vault it shows (no block id: known by text and place), in order. */
  added: AddedLine[];
}

/** A shown added line: the line it is and the text it shows. */
export interface AddedLine {
  sha256: string;
  shown: string;
}

function addedOf(fold: VaultFold, note: NoteFold): AddedLine[] {
  return noteEntries(fold, null, note.added ?? []).flatMap((entry) =>
    entry.kind === 'added' ? [{ sha256: entry.sha256, shown: entry.shown }] : [],
  );
}

function blocksOf(fold: VaultFold, note: NoteFold): Map<string, string> {
  const memory = note.memory;
  // A memory forgotten, tombstoned or superseded as a whole shows no line of its own to address.
  if (
    !memory ||
    fold.forgotten.has(memory.sha256) ||
    fold.tombstones.has(memory.sha256) ||
    fold.superseded.has(memory.sha256)
  )
    return new Map();
  return new Map(memoryBlocks(fold, memory).map((b) => [b.block, b.sha256]));
}

/**
 * The L1 query notes and the L2 index of one project as its events project them: what vault
 * capture compares the files on disk against. The other notes (sources, review, evidence) hold
 * no memory line a person could edit into an event.
 */
export function projectedMemoryNotes(
  project: string,
  events: Iterable<LogEvent>,
  options: RenderOptions,
): ProjectedNote[] {
  return memoryNotesOf(foldOf(project, events, options), options);
}

/** The L1/L2 notes as `events` project them, and the paths of those that `planned` events, appended next, would change. */
export interface MemoryNotesChange {
  before: ProjectedNote[];
  changed: string[];
}

/**
 * Which L1/L2 notes a batch about to be appended would re-render: each note as the log projects
 * it now, and the paths whose bytes (or presence) the batch changes. `planned` are the batch's
 * events as they will be logged (any seq, ts and writer: a note's `updated` day may differ, and
 * a note the batch touches changes anyway). The guard of every correction writer reads it: a
 * note it changes must hold no uncaptured edit, or the projector overwrites that edit.
 */
export function memoryNotesChangedBy(
  project: string,
  events: Iterable<LogEvent>,
  planned: Iterable<LogEvent>,
  options: RenderOptions,
): MemoryNotesChange {
  const fold = foldOf(project, events, options);
  const before = memoryNotesOf(fold, options);
  // A note the batch touches is rendered again and written wherever the file differs from it,
  // even when its bytes come out the same as before the batch (stop 35 review): it counts too.
  const touched = new Set<string>();
  for (const event of planned) {
    if (!vaultHandles(event)) continue;
    for (const key of applyEvent(fold, event, options).touched) touched.add(notePath(project, key));
  }
  const after = new Map(memoryNotesOf(fold, options).map((note) => [note.path, note.bytes]));
  const was = new Map(before.map((note) => [note.path, note.bytes]));
  const changed = [...new Set([...was.keys(), ...after.keys()])]
    .filter((path) => was.get(path) !== after.get(path) || touched.has(path))
    .sort();
  return { before, changed };
}

function foldOf(project: string, events: Iterable<LogEvent>, options: RenderOptions): VaultFold {
  const fold = emptyFold(project);
  for (const event of events) if (vaultHandles(event)) applyEvent(fold, event, options);
  return fold;
}

function memoryNotesOf(fold: VaultFold, options: RenderOptions): ProjectedNote[] {
  const { project } = fold;
  const notes: ProjectedNote[] = [];
  for (const [queryId, note] of fold.queries) {
    const key = { kind: 'query', queryId } as const;
    notes.push({
      path: notePath(project, key),
      bytes: renderNote(fold, key, options)!,
      blocks: blocksOf(fold, note),
      level: 'L1',
      query_id: queryId,
      added: addedOf(fold, note),
    });
  }
  if (fold.index)
    notes.push({
      path: notePath(project, { kind: 'index' }),
      bytes: renderNote(fold, { kind: 'index' }, options)!,
      blocks: blocksOf(fold, fold.index),
      level: 'L2',
      query_id: null,
      added: addedOf(fold, fold.index),
    });
  return notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
