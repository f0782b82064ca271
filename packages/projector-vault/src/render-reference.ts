import type { ReferenceRef, VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import { blockId } from './paths.js';

/** A live passage of one corpus file, with its sha. */
export type LivePassage = ReferenceRef & { sha256: string };

/** The passages of `corpus`'s file `source` no tombstone removed, in log order (the file's order when read). */
export function livePassages(fold: VaultFold, corpus: string, source: string): LivePassage[] {
  return [...fold.references]
    .filter(([sha, r]) => r.corpus === corpus && r.source === source && !fold.tombstones.has(sha))
    .map(([sha256, r]) => ({ ...r, sha256 }))
    .sort((a, b) => a.seq - b.seq);
}

/**
 * The note `<project>/reference/<corpus>/<source>.md` of one corpus file: its live passages
 * verbatim, each after a comment naming its heading path and followed by its block id. Level R
 * in the frontmatter: reference text, never evidence, so no memory note links here.
 */
export function renderReferenceNote(
  fold: VaultFold,
  corpus: string,
  source: string,
  passages: readonly LivePassage[],
): string {
  const body: string[] = [];
  for (const p of passages) {
    const path =
      p.heading_path.length > 0 ? p.heading_path.join(' › ') : '(before the first heading)';
    body.push(`%% ${path.replace(/%%/g, '%')} %%`, '', p.text, '', `^${blockId(p.sha256)}`, '');
  }
  return stringifyNote(
    [
      ['project', fold.project],
      ['level', 'R'],
      ['corpus', corpus],
      ['source', source],
      ['passages', passages.length],
    ],
    body,
  );
}
