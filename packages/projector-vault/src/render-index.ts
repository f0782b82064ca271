import { MemError, copiedText, nearDuplicate } from '@mem/core';
import type { VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';
import { blockId, blockLink, noteLink, queryNotePath, queryTitle } from './paths.js';
import { memoryBlocks } from './note-entries.js';
import { memoryBody, type LineSources } from './render-lines.js';

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function queryLink(project: string, queryId: string): string {
  return noteLink(queryNotePath(project, queryId), queryTitle(queryId));
}

/**
 * The block of the L1 note of `queryId` that shows the line an L2 line copies (its text without
 * the `[query-id] ` prefix), else one it near-duplicates (a line the synthesis folded from
 * several notes); undefined when the note no longer shows it.
 */
function copiedBlock(fold: VaultFold, queryId: string, shown: string): string | undefined {
  const memory = fold.queries.get(queryId)?.memory;
  if (!memory || fold.tombstones.has(memory.sha256) || fold.forgotten.has(memory.sha256))
    return undefined;
  const blocks = memoryBlocks(fold, memory);
  const copied = copiedText(shown);
  return (
    blocks.find((b) => b.shown === copied) ?? blocks.find((b) => nearDuplicate(shown, b.shown))
  )?.block;
}

/**
 * The L1 memories an L2 line came from (its parents are L1 memory shas), each as a link to the
 * L1 note of its query, sorted by query id then sha: to the block of the L1 line the L2 line
 * copies where that note shows it, else to the note (an L2 line in its own words, or one whose
 * L1 line has left the note since). Tombstoned memories are left out.
 */
function l1Sources(fold: VaultFold): LineSources {
  return (parents, shown) => {
    const known: Array<{ queryId: string; sha: string }> = [];
    const unknown: string[] = [];
    for (const sha of new Set(parents)) {
      if (fold.tombstones.has(sha)) continue;
      const queryId = fold.l1Memories.get(sha);
      if (queryId === undefined) unknown.push(sha);
      else known.push({ queryId, sha });
    }
    known.sort((a, b) => byCodeUnit(a.queryId, b.queryId) || byCodeUnit(a.sha, b.sha));
    const links = known.map(({ queryId, sha }) => {
      const block = copiedBlock(fold, queryId, shown);
      return block === undefined
        ? `${queryLink(fold.project, queryId)} (memory ${blockId(sha)})`
        : blockLink(queryNotePath(fold.project, queryId), block, queryTitle(queryId));
    });
    return [
      ...new Set(links),
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
