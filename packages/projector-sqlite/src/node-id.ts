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

/** Seqs per item block: an item node id is its block's slot, then its seq's offset in the block. */
export const ITEM_BLOCK_BITS = 16;

/**
 * The rowid of the item node added at `seq` of `project`: the first 36 bits of
 * sha256(project NUL "I" NUL block), where block is seq >> 16, then seq's low 16 bits. A
 * 52-bit integer, like nodeId's, derived from the log alone (a rebuild and a catch-up agree
 * whatever the interleaving of projects).
 *
 * Why not nodeId's hash of the item's sha: 100 items added together then land on 100 random
 * leaves of node, its FTS5 docsize tables and item_by_node (what a 100-item commit wrote at
 * 100 k items); in one block they are neighbours, a few leaves. Why blocks and not one range
 * per project: two projects whose range prefixes coincide would share ids from their first
 * item (stop 29's ranges: ~0.74 % of stores at 1,000 projects, each refusing every later
 * catch-up); a block slot is 36 bits wide and two blocks coincide only as whole aligned
 * blocks, so the chance of a clash is that of two 36-bit hashes of the store's blocks (one
 * block per 65,536 events of a project). A clash, with a block or any hashed node id, is
 * refused (CONFLICT) as nodeId's are; the space a project's blocks take is its event count,
 * as its hashed item ids took before.
 */
export function itemNodeId(project: string, seq: number): number {
  const block = Math.floor(seq / 2 ** ITEM_BLOCK_BITS);
  const slot = Number.parseInt(sha256Hex(`${project}\u0000I\u0000${block}`).slice(0, 9), 16);
  return slot * 2 ** ITEM_BLOCK_BITS + (seq % 2 ** ITEM_BLOCK_BITS);
}
