import type { NoteKey, VaultFold } from './fold-state.js';
import { evidenceNotePath, indexNotePath, queryNotePath } from './paths.js';
import { renderIndexNote } from './render-index.js';
import { renderQueryNote, type RenderOptions } from './render-query.js';

/** The vault-relative path of a note. */
export function notePath(project: string, key: NoteKey): string {
  return key.kind === 'index' ? indexNotePath(project) : queryNotePath(project, key.queryId);
}

/** The bytes of a note, rendered from the fold. */
export function renderNote(fold: VaultFold, key: NoteKey, options: RenderOptions): string {
  return key.kind === 'index' ? renderIndexNote(fold) : renderQueryNote(fold, key.queryId, options);
}

/** Every note of `fold` as vault-relative path → bytes, sorted by path (evidence notes excluded: they are written once, from their event). */
export function renderProjectNotes(fold: VaultFold, options: RenderOptions): Map<string, string> {
  const keys: NoteKey[] = [...fold.queries.keys()].map((queryId) => ({ kind: 'query', queryId }));
  if (fold.index) keys.push({ kind: 'index' });
  const notes = keys.map((key): [string, string] => [notePath(fold.project, key), renderNote(fold, key, options)]);
  return new Map(notes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Every file the fold says this projector manages, vault-relative and sorted. */
export function managedPaths(fold: VaultFold, options: RenderOptions): string[] {
  const paths: string[] = [...fold.queries.keys()].map((queryId) => queryNotePath(fold.project, queryId));
  if (fold.index) paths.push(indexNotePath(fold.project));
  if (options.emitEvidenceNotes) {
    for (const [sha, evidence] of fold.evidence) {
      if (!fold.tombstones.has(sha)) paths.push(evidenceNotePath(fold.project, evidence.source, evidence.t, sha));
    }
  }
  return paths.sort();
}
