import type { MemError } from '@mem/core';
import type { ChainLink } from './batch.js';
import { lineError, type LineLocation } from './line-codec.js';

/** The last line walked: its link, and where it is (`segment` null for the genesis link). */
export interface WalkedLink extends ChainLink {
  segment: string | null;
  line: number;
}

function describe(link: WalkedLink): string {
  return `${link.segment} line ${link.line} (seq ${link.seq})`;
}

/** A seq jump: reported at the line itself (a line was removed, inserted or swapped before it). */
export function checkSeq(previous: WalkedLink, seq: number, at: LineLocation): MemError | null {
  const expected = previous.seq + 1;
  if (seq === expected) return null;
  const after =
    previous.segment === null ? 'as the first line of the log' : `after ${describe(previous)}`;
  return lineError(
    'CHAIN_BROKEN',
    at,
    `seq ${seq} where seq ${expected} was expected ${after}: a line was removed, inserted or reordered`,
  );
}

/** A `prev` that is not the previous line's hash: blames the previous line (it was edited). */
export function checkPrev(previous: WalkedLink, prev: string, at: LineLocation): MemError | null {
  if (prev === previous.hash) return null;
  if (previous.segment === null) {
    return lineError(
      'CHAIN_BROKEN',
      at,
      `prev does not chain from sha256("genesis:${at.project}"): this first line was changed`,
    );
  }
  return lineError(
    'CHAIN_BROKEN',
    at,
    `prev does not match the sha256 of ${describe(previous)}: that line was changed, or a line between them was removed`,
  );
}

/**
 * Checks that a line with `seq` and `prev` continues the chain after `previous`.
 * Seq first: a removed, inserted or swapped line shows as a seq jump at the line itself;
 * an edited line keeps its seq and shows as a `prev` mismatch on the line after it.
 */
export function checkLink(
  previous: WalkedLink,
  seq: number,
  prev: string,
  at: LineLocation,
): MemError | null {
  return checkSeq(previous, seq, at) ?? checkPrev(previous, prev, at);
}
