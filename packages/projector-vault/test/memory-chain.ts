import { readFileSync } from 'node:fs';
import { contentSha256 } from '@mem/core';
import { noteEntries } from '../src/note-entries.js';
import type { NoteFold, VaultFold } from '../src/fold-state.js';
import { statePath } from '../src/state-store.js';
import { decodeVaultState } from '../src/vault-state.js';
import {
  chainKey,
  sortedShas,
  type ChainHead,
  type MemoryChainView,
} from '../../../test/support/memory-chain.js';

/**
 * A parent's level as the vault reads it: an L1 note looks its parents up as evidence, the index
 * looks them up as L1 memories; a sha found only under the other level resolves there, one
 * found nowhere stays at the note's own (the rule the SQL projections write into edges).
 */
function parentLevel(fold: VaultFold, preferred: 'L0' | 'L1', sha: string): string {
  const atL0 = fold.evidence.has(sha);
  const atL1 = fold.l1Memories.has(sha);
  if (preferred === 'L0') return atL0 || !atL1 ? 'L0' : 'L1';
  return atL1 || !atL0 ? 'L1' : 'L0';
}

function headOf(fold: VaultFold, note: NoteFold, preferred: 'L0' | 'L1'): ChainHead | null {
  if (!note.memory) return null;
  const parents = sortedShas(new Set(note.memory.parents));
  return {
    sha256: note.memory.sha256,
    // A forgotten memory is deleted in SQLite and pgvector: it is no live head there either.
    live: !fold.tombstones.has(note.memory.sha256) && !fold.forgotten.has(note.memory.sha256),
    parents: Object.fromEntries(parents.map((sha) => [sha, parentLevel(fold, preferred, sha)])),
  };
}

/**
 * The lines the notes show, as the shas recall would find: a superseded line shows (and is) its
 * successor. A note whose memory is tombstoned, forgotten or superseded as a whole shows none
 * of the memory's lines, only what was added in the vault.
 */
function shownLines(fold: VaultFold, notes: Iterable<NoteFold | null>): string[] {
  const shas = new Set<string>();
  for (const note of notes) {
    if (!note) continue;
    const memory = note.memory;
    const shown =
      memory &&
      !fold.tombstones.has(memory.sha256) &&
      !fold.forgotten.has(memory.sha256) &&
      !fold.superseded.has(memory.sha256)
        ? memory
        : null;
    for (const entry of noteEntries(fold, shown, note.added ?? []))
      shas.add(contentSha256(entry.kind === 'added' ? entry.shown : entry.block.shown));
  }
  return sortedShas(shas);
}

/**
 * The memory-chain state of `project` as the vault's persisted fold (`<stateDir>/vault/<project>.json`)
 * holds it: each query note's memory is its L1 head, the index's memory the L2 head. The fold
 * keeps no memory a later one replaced, so its current memories are its heads, less those
 * superseded as a whole.
 */
export function vaultMemoryChain(stateDir: string, project: string): MemoryChainView {
  const { fold } = decodeVaultState(readFileSync(statePath(stateDir, project), 'utf8'));
  const view: MemoryChainView = {
    heads: {},
    current: { L1: [], L2: [] },
    tombstoned: sortedShas(fold.tombstones.keys()),
    live: { L1: shownLines(fold, fold.queries.values()), L2: shownLines(fold, [fold.index]) },
  };
  for (const queryId of sortedShas(fold.queries.keys())) {
    const head = headOf(fold, fold.queries.get(queryId)!, 'L0');
    if (head) view.heads[chainKey('L1', queryId)] = head;
  }
  const synthesis = fold.index && headOf(fold, fold.index, 'L1');
  if (synthesis) view.heads[chainKey('L2', '')] = synthesis;
  view.current.L1 = sortedShas(
    new Set(
      Object.entries(view.heads)
        .filter(([key]) => key.startsWith('L1:'))
        .map(([, h]) => h.sha256)
        // A memory superseded as a whole (`mem supersede` of a memory sha) is no current one.
        .filter((sha) => !fold.superseded.has(sha)),
    ),
  );
  view.current.L2 = synthesis && !fold.superseded.has(synthesis.sha256) ? [synthesis.sha256] : [];
  return view;
}
