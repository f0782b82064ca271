import type { NoteKey, VaultFold } from './fold-state.js';
import {
  evidenceNotePath,
  indexNotePath,
  referenceNotePath,
  reviewNotePath,
  queryNotePath,
  skillNotePath,
  sourceSlug,
  sourceSlugNotePath,
} from './paths.js';
import { renderIndexNote } from './render-index.js';
import { renderQueryNote, type RenderOptions } from './render-query.js';
import { renderReviewNote } from './render-review.js';
import { livePassages, renderReferenceNote } from './render-reference.js';
import { listsChunk, renderSourceNote, sourceChunks } from './render-source.js';

/** The vault-relative path of a note. */
export function notePath(project: string, key: NoteKey): string {
  if (key.kind === 'source') return sourceSlugNotePath(project, key.slug);
  if (key.kind === 'skill') return skillNotePath(key.name, key.draft);
  if (key.kind === 'review') return reviewNotePath(project);
  if (key.kind === 'reference') return referenceNotePath(project, key.corpus, key.source);
  return key.kind === 'index' ? indexNotePath(project) : queryNotePath(project, key.queryId);
}

/**
 * The bytes of a note, rendered from the fold; null for a note that must not exist: a source
 * note whose every chunk was tombstoned or cited only by forgotten lines (no provenance line
 * links to it any more).
 */
export function renderNote(fold: VaultFold, key: NoteKey, options: RenderOptions): string | null {
  if (key.kind === 'skill') {
    const skill = fold.skills.get(key.name);
    return (key.draft ? skill?.draft : skill?.promoted) ?? null;
  }
  if (key.kind === 'review') return renderReviewNote(fold);
  if (key.kind === 'reference') {
    const passages = livePassages(fold, key.corpus, key.source);
    return passages.length > 0 ? renderReferenceNote(fold, key.corpus, key.source, passages) : null;
  }
  if (key.kind === 'source') {
    const chunks = [...fold.evidence]
      .filter(([sha, e]) => listsChunk(fold, sha) && sourceSlug(e.source) === key.slug)
      .map(([sha256, e]) => ({ ...e, sha256 }));
    return chunks.length > 0 ? renderSourceNote(fold, key.slug, chunks, options) : null;
  }
  return key.kind === 'index' ? renderIndexNote(fold) : renderQueryNote(fold, key.queryId, options);
}

function noteKeys(fold: VaultFold): NoteKey[] {
  const keys: NoteKey[] = [...fold.queries.keys()].map((queryId) => ({ kind: 'query', queryId }));
  if (fold.index) keys.push({ kind: 'index' });
  for (const slug of sourceChunks(fold).keys()) keys.push({ kind: 'source', slug });
  if (fold.reviews.size > 0) keys.push({ kind: 'review' });
  for (const [name, skill] of fold.skills) {
    if (skill.draft !== null) keys.push({ kind: 'skill', name, draft: true });
    if (skill.promoted !== null) keys.push({ kind: 'skill', name, draft: false });
  }
  const files = new Map<string, NoteKey>();
  for (const [sha, ref] of fold.references)
    if (!fold.tombstones.has(sha))
      files.set(`${ref.corpus}\0${ref.source}`, {
        kind: 'reference',
        corpus: ref.corpus,
        source: ref.source,
      });
  keys.push(...files.values());
  return keys;
}

/** Every note of `fold` as vault-relative path → bytes, sorted by path (evidence notes excluded: they are written once, from their event). */
export function renderProjectNotes(fold: VaultFold, options: RenderOptions): Map<string, string> {
  const notes: Array<[string, string]> = [];
  for (const key of noteKeys(fold)) {
    const content = renderNote(fold, key, options);
    if (content !== null) notes.push([notePath(fold.project, key), content]);
  }
  return new Map(notes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Every file the fold says this projector manages, vault-relative and sorted. */
export function managedPaths(fold: VaultFold, options: RenderOptions): string[] {
  const paths = noteKeys(fold).map((key) => notePath(fold.project, key));
  if (options.emitEvidenceNotes) {
    for (const [sha, evidence] of fold.evidence) {
      if (!fold.tombstones.has(sha))
        paths.push(evidenceNotePath(fold.project, evidence.source, evidence.t, sha));
    }
  }
  return paths.sort();
}
