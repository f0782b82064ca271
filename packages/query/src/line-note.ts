import type { ItemStore, NodeRow } from '@mem/projector-sqlite';
import { indexNotePath, queryNotePath } from '@mem/projector-vault';

/** The note a line belongs to: the live memory holding it, its standing query, its vault note. */
export interface LineNote {
  level: 'L1' | 'L2';
  /** The memory's sha256. */
  sha256: string;
  /** The standing query whose memory it is; null for the L2 synthesis. */
  query_id: string | null;
  /** Vault path of the note that renders the memory (`<project>/<query-id>.md`, `<project>/index.md`). */
  path: string;
}

/**
 * The note of a line (issue 11 §3): the live memory holding it. A line held by several live
 * memories (two queries kept the same line) names the first by query id, L2's synthesis last.
 * Null for anything but a line, and for a line whose memories all left (it is then not live).
 * One lookup over the live memories (ItemStore.lineNote), however many steps kept the line.
 */
export function noteOf(items: ItemStore, node: NodeRow): LineNote | null {
  if (node.kind !== 'line' || (node.level !== 'L1' && node.level !== 'L2')) return null;
  return noteAt(node.project, node.level, items.lineNote(node.project, node.level, node.sha256));
}

/** noteOf for each row of a page, in page order: the lines' notes in one statement (ItemStore.lineNotes). */
export function notesOfPage(items: ItemStore, nodes: readonly NodeRow[]): (LineNote | null)[] {
  const lines = nodes.filter(
    (node) => node.kind === 'line' && (node.level === 'L1' || node.level === 'L2'),
  );
  const notes = new Map(items.lineNotes(lines).map((row, i) => [lines[i]!, row] as const));
  return nodes.map((node) =>
    notes.has(node) ? noteAt(node.project, node.level as 'L1' | 'L2', notes.get(node)) : null,
  );
}

function noteAt(
  project: string,
  level: 'L1' | 'L2',
  memory: { sha256: string; query_id: string | null } | undefined,
): LineNote | null {
  if (!memory) return null;
  const path =
    memory.query_id === null ? indexNotePath(project) : queryNotePath(project, memory.query_id);
  return { level, sha256: memory.sha256, query_id: memory.query_id, path };
}
