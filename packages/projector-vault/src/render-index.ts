import { MemError } from '@mem/core';
import type { VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import { noteLink, queryNotePath, queryTitle } from './paths.js';
import { memoryParagraph } from './render-query.js';

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function queryLink(project: string, queryId: string): string {
  return noteLink(queryNotePath(project, queryId), queryTitle(queryId));
}

/** One line per non-tombstoned L1 memory the synthesis rests on, sorted by query id then sha. */
function synthesisProvenance(fold: VaultFold, parents: readonly string[]): string[] {
  const known: Array<{ queryId: string; sha: string }> = [];
  const unknown: string[] = [];
  for (const sha of new Set(parents)) {
    if (fold.tombstones.has(sha)) continue;
    const queryId = fold.l1Memories.get(sha);
    if (queryId === undefined) unknown.push(sha);
    else known.push({ queryId, sha });
  }
  known.sort((a, b) => byCodeUnit(a.queryId, b.queryId) || byCodeUnit(a.sha, b.sha));
  return [
    ...known.map(({ queryId, sha }) => `- ${queryLink(fold.project, queryId)} memory ${sha.slice(0, 8)}`),
    ...unknown.sort(byCodeUnit).map((sha) => `- L1 memory ${sha.slice(0, 8)} (not in this log)`),
  ];
}

/** The L2 note `<project>/index.md`: the synthesis, a link to every L1 note, and what the synthesis rests on. */
export function renderIndexNote(fold: VaultFold): string {
  const note = fold.index;
  if (!note) throw new MemError('NOT_FOUND', `project ${fold.project} has no index note yet`, { project: fold.project });
  const visible = note.memory !== null && !fold.tombstones.has(note.memory.sha256);
  const provenance = visible && note.memory ? synthesisProvenance(fold, note.memory.parents) : [];
  const links = [...fold.queries.keys()].sort(byCodeUnit).map((queryId) => `- ${queryLink(fold.project, queryId)}`);
  return stringifyNote(
    [
      ['project', fold.project],
      ['level', 'L2'],
      ['query_id', null],
      ['updated', { day: note.updated }],
      ['chunks_seen', note.chunks_seen],
      ['chunks_used', note.chunks_used],
    ],
    [
      `# ${fold.project}`,
      '',
      memoryParagraph(fold, note, 'No synthesis yet: no L2 run has written a memory.'),
      '',
      '## Notes',
      ...(links.length > 0 ? links : ['No L1 notes yet.']),
      '',
      '## Provenance',
      ...(provenance.length > 0 ? provenance : ['No L1 memories cited.']),
    ],
  );
}
