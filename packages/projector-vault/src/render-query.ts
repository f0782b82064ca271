import { MemError } from '@mem/core';
import type { NoteFold, VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import { evidenceNotePath, noteLink, queryTitle, sourceSlug } from './paths.js';
import { markdownBlock, oneLine } from './text.js';

/** Rendering options that shape output (same options, same bytes). */
export interface RenderOptions {
  emitEvidenceNotes: boolean;
}

interface ProvenanceLine {
  sortKey: readonly [string, number, string];
  line: string;
}

function compareKeys(a: ProvenanceLine, b: ProvenanceLine): number {
  const [sa, ta, ha] = a.sortKey;
  const [sb, tb, hb] = b.sortKey;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (ta !== tb) return ta - tb;
  return ha < hb ? -1 : ha > hb ? 1 : 0;
}

/** One line per cited, non-tombstoned L0 evidence, sorted by source, chunk number, sha. */
function evidenceLines(fold: VaultFold, parents: readonly string[], options: RenderOptions): string[] {
  const lines: ProvenanceLine[] = [];
  for (const sha of new Set(parents)) {
    if (fold.tombstones.has(sha)) continue;
    const evidence = fold.evidence.get(sha);
    if (!evidence) {
      // Trigger: a parent sha with no evidence record in this log. Why: provenance must not
      // invent a source. Outcome: an honest line naming the sha, sorted after the known ones.
      lines.push({ sortKey: ['\uffff', 0, sha], line: `- evidence ${sha.slice(0, 8)} (not in this log)` });
      continue;
    }
    const slug = sourceSlug(evidence.source);
    const link = options.emitEvidenceNotes
      ? noteLink(evidenceNotePath(fold.project, evidence.source, evidence.t, sha), slug)
      : `[[${slug}]]`;
    const excerpt = evidence.excerpt === '' ? '' : ` — ${evidence.excerpt}`;
    lines.push({ sortKey: [evidence.source, evidence.t, sha], line: `- ${link} chunk ${evidence.t}${excerpt}` });
  }
  return lines.sort(compareKeys).map((l) => l.line);
}

/** The body paragraph of a note: its memory, or an honest line saying why there is none. */
export function memoryParagraph(fold: VaultFold, note: NoteFold, missing: string): string {
  if (!note.memory) return missing;
  const reason = fold.tombstones.get(note.memory.sha256);
  if (reason !== undefined) return `Memory removed by a tombstone: ${oneLine(reason)}`;
  return markdownBlock(note.memory.text);
}

/** The L1 note of `queryId`, in the seed's form: frontmatter, title, final memory, provenance. */
export function renderQueryNote(fold: VaultFold, queryId: string, options: RenderOptions): string {
  const note = fold.queries.get(queryId);
  if (!note) throw new MemError('NOT_FOUND', `no L1 note for query ${queryId} in project ${fold.project}`, { project: fold.project, query_id: queryId });
  const visible = note.memory !== null && !fold.tombstones.has(note.memory.sha256);
  const provenance = visible && note.memory ? evidenceLines(fold, note.memory.parents, options) : [];
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
      memoryParagraph(fold, note, 'No memory yet: no chunk has opened the update gate.'),
      '',
      '## Provenance',
      ...(provenance.length > 0 ? provenance : ['No evidence cited.']),
    ],
  );
}
