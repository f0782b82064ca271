/*
 * Where each note lives, relative to the vault directory, '/'-separated.
 * Every name is a pure function of event data, so a rebuild lands on the same paths.
 */

const SLUG_MAX = 80;

/** A filename-safe, stable slug of a source URI: `pi:2026-07-21T16-23-59_019f857d` → `pi-2026-07-21t16-23-59-019f857d`. */
export function sourceSlug(source: string): string {
  const slug = source
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const capped = slug.slice(0, SLUG_MAX).replace(/-+$/, '');
  return capped === '' ? 'source' : capped;
}

/** The note title of a standing query: dashes become spaces, the first letter is upper-cased. */
export function queryTitle(queryId: string): string {
  const words = queryId.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * File stem of a query's L1 note. A query id cannot start with `_`, so the query named
 * `index` moves to `_index` without colliding with the L2 note or with any other query.
 */
export function queryNoteStem(queryId: string): string {
  return queryId === 'index' ? '_index' : queryId;
}

/** `<project>/<query-id>.md`: the L1 note of one standing query. */
export function queryNotePath(project: string, queryId: string): string {
  return `${project}/${queryNoteStem(queryId)}.md`;
}

/** `<project>/index.md`: the L2 synthesis note. */
export function indexNotePath(project: string): string {
  return `${project}/index.md`;
}

/** The review queue's note: `_` keeps it apart from query notes, whose ids start with [a-z0-9]. */
export function reviewNotePath(project: string): string {
  return `${project}/_review.md`;
}

/** File stem of an L0 evidence note: source slug, chunk number, first 8 hex of the content sha. */
export function evidenceNoteStem(source: string, t: number, sha256: string): string {
  return `${sourceSlug(source)}-chunk${t}-${sha256.slice(0, 8)}`;
}

/** `<project>/evidence/<stem>.md`: one L0 evidence note (only with emitEvidenceNotes). */
export function evidenceNotePath(
  project: string,
  source: string,
  t: number,
  sha256: string,
): string {
  return `${project}/evidence/${evidenceNoteStem(source, t, sha256)}.md`;
}

/** A wikilink to a note this projector writes: vault-relative target (unambiguous across projects), readable alias. */
export function noteLink(path: string, alias: string): string {
  return `[[${path.replace(/\.md$/, '')}|${alias}]]`;
}

/**
 * `<project>/sources/<source-slug>.md`: the note of one source session, listing the chunks of it
 * the memories rest on. Always written (with or without evidence notes), so every provenance
 * link resolves. Sources whose slugs collide share the note, each under its own heading.
 */
export function sourceNotePath(project: string, source: string): string {
  return `${project}/sources/${sourceSlug(source)}.md`;
}

/** The vault-relative path of a source note, from its slug (the note key). */
export function sourceSlugNotePath(project: string, slug: string): string {
  return `${project}/sources/${slug}.md`;
}

/**
 * `<project>/reference/<corpus>/<source>.md`: the note of one file of a reference corpus, its
 * directories kept (the source URI is relative to the corpus root). Each segment is made
 * filename-safe; `.md` is appended unless the file already is one.
 */
export function referenceNotePath(project: string, corpus: string, source: string): string {
  const segments = source
    .split('/')
    .filter((s) => s !== '' && s !== '.' && s !== '..')
    .map((s) => s.replace(/[^A-Za-z0-9._ -]+/g, '-'));
  const path = segments.length > 0 ? segments.join('/') : 'source';
  return `${project}/reference/${corpus}/${/\.md$/i.test(path) ? path : `${path}.md`}`;
}

/** An Obsidian block id for a content sha (a memory line, a chunk): its first 8 hex, stable across rebuilds. */
export function blockId(sha256: string): string {
  return sha256.slice(0, 8);
}

/** A wikilink to one block of a note this projector writes: `[[path#^block|alias]]`. */
export function blockLink(path: string, block: string, alias: string): string {
  return `[[${path.replace(/\.md$/, '')}#^${block}|${alias}]]`;
}

/**
 * `skills/_drafts/<name>/SKILL.md` or, promoted, `skills/<name>/SKILL.md`: outside every project
 * directory, because that is where agents load skills from. `_drafts/` is a directory and not a
 * flag so that no `--skill skills/` glob can load a draft.
 */
export function skillNotePath(name: string, draft: boolean): string {
  return draft ? `skills/_drafts/${name}/SKILL.md` : `skills/${name}/SKILL.md`;
}
