import { MemError } from '@mem/core';
import type { VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import { blockId, noteLink, queryNotePath, queryTitle } from './paths.js';
import { memoryBody, type LineSources } from './render-lines.js';

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function queryLink(project: string, queryId: string): string {
  return noteLink(queryNotePath(project, queryId), queryTitle(queryId));
}

/**
 * The L1 memories an L2 line came from (its parents are L1 memory shas), each as a link to the
 * L1 note of its query, sorted by query id then sha. Tombstoned memories are left out.
 */
function l1Sources(fold: VaultFold): LineSources {
  return (parents) => {
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
      ...known.map(
        ({ queryId, sha }) => `${queryLink(fold.project, queryId)} (memory ${blockId(sha)})`,
      ),
      ...unknown.sort(byCodeUnit).map((sha) => `L1 memory ${blockId(sha)} (not in this log)`),
    ];
  };
}

/** The L2 note `<project>/index.md`: the synthesis line by line, each linked to its L1 notes, and a link to every L1 note. */
export function renderIndexNote(fold: VaultFold): string {
  const note = fold.index;
  if (!note)
    throw new MemError('NOT_FOUND', `project ${fold.project} has no index note yet`, {
      project: fold.project,
    });
  const links = [...fold.queries.keys()]
    .sort(byCodeUnit)
    .map((queryId) => `- ${queryLink(fold.project, queryId)}`);
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
      ...memoryBody(
        fold,
        note,
        'No synthesis yet: no L2 run has written a memory.',
        l1Sources(fold),
      ),
      '',
      '## Notes',
      ...(links.length > 0 ? links : ['No L1 notes yet.']),
    ],
  );
}
