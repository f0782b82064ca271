import { MemError } from '@mem/core';
import type { VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import {
  blockId,
  blockLink,
  evidenceNotePath,
  noteLink,
  queryTitle,
  sourceNotePath,
  sourceSlug,
} from './paths.js';
import { memoryBody, type LineSources } from './render-lines.js';

/** Rendering options that shape output (same options, same bytes). */
export interface RenderOptions {
  emitEvidenceNotes: boolean;
}

interface CitedChunk {
  source: string;
  t: number;
  sha: string;
  link: string;
}

function byChunk(a: CitedChunk, b: CitedChunk): number {
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  if (a.t !== b.t) return a.t - b.t;
  return a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0;
}

/**
 * The chunks an L1 line came from, one entry per source (`<slug> chunks 3, 9`), sorted by
 * source, chunk number, sha: each number a link to its block in the source note, or to its
 * evidence note when those are written. Tombstoned evidence is left out.
 */
function evidenceSources(fold: VaultFold, options: RenderOptions): LineSources {
  return (parents) => {
    const cited: CitedChunk[] = [];
    const unknown: string[] = [];
    for (const sha of new Set(parents)) {
      if (fold.tombstones.has(sha)) continue;
      const evidence = fold.evidence.get(sha);
      if (!evidence) {
        // Trigger: a parent sha with no evidence record in this log. Why: provenance must not
        // invent a source. Outcome: an honest entry naming the sha, after the known ones.
        unknown.push(sha);
        continue;
      }
      const alias = String(evidence.t);
      const link = options.emitEvidenceNotes
        ? noteLink(evidenceNotePath(fold.project, evidence.source, evidence.t, sha), alias)
        : blockLink(sourceNotePath(fold.project, evidence.source), blockId(sha), alias);
      cited.push({ source: evidence.source, t: evidence.t, sha, link });
    }
    // Sorted first, so each source's entry lists its chunks in order and sources come in order.
    const bySource = new Map<string, string[]>();
    for (const chunk of cited.sort(byChunk))
      bySource.set(chunk.source, [...(bySource.get(chunk.source) ?? []), chunk.link]);
    return [
      ...[...bySource].map(
        ([source, links]) =>
          `${sourceSlug(source)} chunk${links.length > 1 ? 's' : ''} ${links.join(', ')}`,
      ),
      ...unknown.sort().map((sha) => `evidence ${blockId(sha)} (not in this log)`),
    ];
  };
}

/** The L1 note of `queryId`: frontmatter, title, and the final memory's lines, each with the chunks it came from. */
export function renderQueryNote(fold: VaultFold, queryId: string, options: RenderOptions): string {
  const note = fold.queries.get(queryId);
  if (!note)
    throw new MemError('NOT_FOUND', `no L1 note for query ${queryId} in project ${fold.project}`, {
      project: fold.project,
      query_id: queryId,
    });
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
      ...memoryBody(
        fold,
        note,
        'No memory yet: no chunk has opened the update gate.',
        evidenceSources(fold, options),
      ),
    ],
  );
}
