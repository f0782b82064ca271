/*
 * What the memory-chain rules decide for one project, in one shape every projection can be read
 * into: the rules are written three times (SQLite SQL, PL/pgSQL, the vault's fold), and a
 * property test compares the three readings: memory heads, edges and tombstones, and which
 * lines are live after the corrections (forgotten, superseded by a successor, added in the vault).
 */

/** A chain's head: `L1:<query id>`, or `L2:` for the project's synthesis. */
export interface ChainHead {
  sha256: string;
  /** Not tombstoned: the projection still shows it. */
  live: boolean;
  /** The head's parents, sha → the level it resolved to. */
  parents: Record<string, string>;
}

export interface MemoryChainView {
  /** Chain key (`<level>:<query id or ''>`) → its head. */
  heads: Record<string, ChainHead>;
  /** Memory shas per level that no later memory of their chain replaced, sorted. */
  current: Record<'L1' | 'L2', string[]>;
  /** Tombstoned shas, sorted. */
  tombstoned: string[];
  /** Line shas per level that recall finds (a superseded line's successor, not the line), sorted. */
  live: Record<'L1' | 'L2', string[]>;
}

/** The chain key of a head. */
export function chainKey(level: string, queryKey: string): string {
  return `${level}:${queryKey}`;
}

/** Sorted copy, by code unit (the order SQL's `COLLATE "C"` and SQLite's BINARY give). */
export function sortedShas(shas: Iterable<string>): string[] {
  return [...shas].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
