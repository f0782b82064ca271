import { MemError } from '@mem/core';
import type { VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import { blockId, blockLink, evidenceNotePath, noteLink, queryTitle, sourceNotePath, sourceSlug } from './paths.js';
import { memoryBody, type LineSources } from './render-lines.js';

/** Rendering options that shape output (same options, same bytes). */
export interface RenderOptions {
  emitEvidenceNotes: boolean;
}

interface SourceLink {
  sortKey: readonly [string, number, string];
  link: string;
}

function compareKeys(a: SourceLink, b: SourceLink): number {
  const [sa, ta, ha] = a.sortKey;
  const [sb, tb, hb] = b.sortKey;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (ta !== tb) return ta - tb;
  return ha < hb ? -1 : ha > hb ? 1 : 0;
}

/**
 * The chunks an L1 line came from, sorted by source, chunk number, sha: each a link to its
 * block in the source note, or to its evidence note when those are written. Tombstoned
 * evidence is left out.
 */
function evidenceSources(fold: VaultFold, options: RenderOptions): LineSources {
  return (parents) => {
    const links: SourceLink[] = [];
    for (const sha of new Set(parents)) {
      if (fold.tombstones.has(sha)) continue;
      const evidence = fold.evidence.get(sha);
      if (!evidence) {
        // Trigger: a parent sha with no evidence record in this log. Why: provenance must not
        // invent a source. Outcome: an honest entry naming the sha, sorted after the known ones.
        links.push({ sortKey: ['\uffff', 0, sha], link: `evidence ${blockId(sha)} (not in this log)` });
        continue;
      }
      const alias = `${sourceSlug(evidence.source)} chunk ${evidence.t}`;
      const link = options.emitEvidenceNotes
        ? noteLink(evidenceNotePath(fold.project, evidence.source, evidence.t, sha), alias)
        : blockLink(sourceNotePath(fold.project, evidence.source), blockId(sha), alias);
      links.push({ sortKey: [evidence.source, evidence.t, sha], link });
    }
    return links.sort(compareKeys).map((l) => l.link);
  };
}

/** The L1 note of `queryId`: frontmatter, title, and the final memory's lines, each with the chunks it came from. */
export function renderQueryNote(fold: VaultFold, queryId: string, options: RenderOptions): string {
  const note = fold.queries.get(queryId);
  if (!note) throw new MemError('NOT_FOUND', `no L1 note for query ${queryId} in project ${fold.project}`, { project: fold.project, query_id: queryId });
  return stringifyNote(
    [
      ['project', fold.project],
      ['level', 'L1'],
      ['query_id', queryId],
      ['updated', { day: note.updated }],
      ['chunks_seen', note.chunks_seen],
      ['chunks_used', note.chunks_used],
    ],
    [
      `# ${queryTitle(queryId)} — ${fold.project}`,
      '',
      ...memoryBody(fold, note, 'No memory yet: no chunk has opened the update gate.', evidenceSources(fold, options)),
    ],
  );
}
