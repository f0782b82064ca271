import type { EvidenceRef, VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import { citedOnlyByForgotten } from './live-lines.js';
import { blockId, evidenceNotePath, noteLink, sourceSlug } from './paths.js';
import type { RenderOptions } from './render-query.js';
import { inertLinks } from './text.js';

/** A cited chunk of a source session: its evidence sha and what the fold keeps of it. */
export interface SourceChunk extends EvidenceRef {
  sha256: string;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether a source note lists the chunk of evidence `sha`: not tombstoned, not cited only by forgotten lines. */
export function listsChunk(fold: VaultFold, sha: string): boolean {
  return !fold.tombstones.has(sha) && !citedOnlyByForgotten(fold, sha);
}

/** The evidence source notes list, grouped by source slug (the note they share). */
export function sourceChunks(fold: VaultFold): Map<string, SourceChunk[]> {
  const bySlug = new Map<string, SourceChunk[]>();
  for (const [sha256, evidence] of fold.evidence) {
    if (!listsChunk(fold, sha256)) continue;
    const slug = sourceSlug(evidence.source);
    bySlug.set(slug, [...(bySlug.get(slug) ?? []), { ...evidence, sha256 }]);
  }
  return bySlug;
}

function records(span: [number, number] | null): string {
  if (span === null) return 'no record span';
  const [start, end] = span;
  return end > start + 1
    ? `records ${start}–${end - 1}`
    : end === start + 1
      ? `record ${start}`
      : `no records (at ${start})`;
}

/** One chunk: where it lies in the source and when it was read, its excerpt, its block id (the evidence sha). */
function chunkLine(project: string, chunk: SourceChunk, options: RenderOptions): string {
  const name = options.emitEvidenceNotes
    ? noteLink(evidenceNotePath(project, chunk.source, chunk.t, chunk.sha256), `chunk ${chunk.t}`)
    : `chunk ${chunk.t}`;
  const excerpt = chunk.excerpt === '' ? '' : ` — ${inertLinks(chunk.excerpt)}`;
  return `- ${name} · ${records(chunk.span)} · read ${chunk.ts}${excerpt} ^${blockId(chunk.sha256)}`;
}

/**
 * The note `<project>/sources/<slug>.md` of one source session: the chunks of it that memories
 * rest on, under a heading per source (sources whose slugs collide share the note), sorted by
 * chunk number then sha. Provenance lines link to a chunk's block here.
 */
export function renderSourceNote(
  fold: VaultFold,
  slug: string,
  chunks: readonly SourceChunk[],
  options: RenderOptions,
): string {
  const sources = [...new Set(chunks.map((c) => c.source))].sort(byCodeUnit);
  const body = [
    `# ${slug}`,
    '',
    `The chunks of this source that memories of ${fold.project} rest on.`,
  ];
  for (const source of sources) {
    const own = chunks
      .filter((c) => c.source === source)
      .sort((a, b) => a.t - b.t || byCodeUnit(a.sha256, b.sha256));
    body.push('', `## ${source}`, ...own.map((chunk) => chunkLine(fold.project, chunk, options)));
  }
  return stringifyNote(
    [
      ['project', fold.project],
      ['level', 'L0'],
      ['sources', sources],
      ['chunks_used', chunks.length],
    ],
    body,
  );
}
