import { sha256Hex } from '@mem/core';

/**
 * The rowid of the node `(project, level, sha256)`: the first 52 bits of
 * sha256(project NUL level NUL sha256), a JS-safe integer.
 *
 * Why not autoincrement: a catch-up applies projects in a different interleaving than a
 * rebuild, so insertion-order ids would differ between the two and so would the file bytes.
 * A derived id is the same whatever the order. A collision with another key is refused
 * (CONFLICT) rather than resolved, since any resolution would depend on arrival order.
 */
export function nodeId(project: string, level: string, sha256: string): number {
  return Number.parseInt(sha256Hex(`${project}\u0000${level}\u0000${sha256}`).slice(0, 13), 16);
}

/**
 * The rowid of the line node `(project, level, sha256)`: a one-line memory's line has the
 * memory's sha, so a line's id is derived from its kind too.
 */
export function lineNodeId(project: string, level: string, sha256: string): number {
  return nodeId(project, `${level}\u0000line`, sha256);
}

/** Seqs up to this one get a node id in their project's range (itemNodeId); later ones a hashed one. */
const ITEM_SEQ_BITS = 26;

/**
 * The rowid of the item added at `seq` of `project`: 2^52, then the project's range (the first
 * 26 bits of sha256(project NUL "I")), then the seq — so a project's items follow one another
 * in node, node_fts, item_fts and every index keyed by node id, and a rebuild that interleaves
 * projects differently still gives every item the same id. Above 2^52, apart from every
 * nodeId (below it). A seq of 2^26 or more gets nodeId's hashed id, at level I.
 *
 * Trigger: add_items(100) at 100 k items wrote ~1,200 WAL pages per commit, ~480 of them in
 * node, item_by_node and the two FTS5 docsize tables, each insert on a random page of a
 * structure keyed by a hashed id. Outcome: those pages are the tail of the project's range.
 * Cost: two projects whose 26-bit ranges coincide give their items of one seq one id, which
 * the catch-up refuses as CONFLICT (as it refuses any id collision): ~P²/2^27 for P projects.
 */
export function itemNodeId(project: string, seq: number, sha256: string): number {
  if (seq >= 2 ** ITEM_SEQ_BITS) return nodeId(project, 'I', sha256);
  const range = Number.parseInt(sha256Hex(`${project}\u0000I`).slice(0, 7), 16) >>> 2;
  return 2 ** 52 + range * 2 ** ITEM_SEQ_BITS + seq;
}
