import { contentSha256, memoryLines, splitMemoryLines, type LogEvent } from '@mem/core';
import { applyEvent, vaultHandles } from './fold.js';
import { emptyFold, type MemoryRef, type VaultFold } from './fold-state.js';
import { liveText } from './live-lines.js';

/** What a note shows now: its memory's sha and the text of each live line, in order. */
export interface ShownLines {
  /** The content sha of the memory the note shows. */
  memory: string;
  query_id: string | null;
  lines: string[];
}

/** A project's vault fold from its events: the same fold the vault renders its notes from. */
export function foldOf(project: string, events: Iterable<LogEvent>): VaultFold {
  const fold = emptyFold(project);
  for (const event of events)
    if (vaultHandles(event)) applyEvent(fold, event, { emitEvidenceNotes: false });
  return fold;
}

/**
 * The lines note `note` (a query id, or `index` for the L2 note) shows, read as the vault renders
 * them: forgotten and tombstoned lines left out, a superseded line (or memory) shown as its
 * successor. Null when there is no such note or it shows no memory.
 */
export function noteLines(fold: VaultFold, note: string): ShownLines | null {
  const shown = note === 'index' ? fold.index : fold.queries.get(note);
  const memory = shown?.memory;
  if (!memory) return null;
  const queryId = note === 'index' ? null : note;
  if (fold.forgotten.has(memory.sha256) || fold.tombstones.has(memory.sha256))
    return { memory: memory.sha256, query_id: queryId, lines: [] };
  return { memory: memory.sha256, query_id: queryId, lines: liveLines(fold, memory) };
}

function liveLines(fold: VaultFold, memory: MemoryRef): string[] {
  const whole = fold.superseded.get(memory.sha256);
  const lines = whole
    ? splitMemoryLines(whole.text).map((text) => ({ sha256: contentSha256(text), text }))
    : memoryLines(memory);
  const out: string[] = [];
  for (const line of lines) {
    const text = liveText(fold, line.sha256, line.text);
    if (text !== null) out.push(text);
  }
  return out;
}
