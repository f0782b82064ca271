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
