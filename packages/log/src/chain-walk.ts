import { sha256Hex, type MemError } from '@mem/core';
import { checkLink, checkSeq, type WalkedLink } from './chain-check.js';
import { decodeLine, lineError, peekSeq, type LineLocation } from './line-codec.js';
import type { LoggedEvent } from './types.js';

/** Where a walk along one project's chain stands. */
export interface WalkState {
  /** The last line walked; null until the first line when the walk starts after segment 1. */
  link: WalkedLink | null;
  /** The bytes of `link`'s line when it was skipped: hashed only if the next line needs it. */
  unhashed: Buffer | null;
  fromSeq: number;
  expectPrev: string | undefined;
}

/**
 * Checks one line (bytes without `\n`) against the chain and advances the walk. Returns the
 * logged event when it is at or after `fromSeq`, null for a line before it. Throws a MemError
 * naming the line: the line's own (LOG_CORRUPT, INVALID_EVENT, …) or CHAIN_BROKEN.
 */
export function resolveLine(bytes: Buffer, at: LineLocation, state: WalkState): LoggedEvent | null {
  // Lines before fromSeq (the caller has them already) are only counted by seq, read from their
  // first bytes; the last one is hashed when the first wanted line must chain from it.
  const skippedSeq = state.fromSeq > 1 ? peekSeq(bytes) : null;
  if (skippedSeq !== null && skippedSeq < state.fromSeq) {
    if (state.link) throwIf(checkSeq(state.link, skippedSeq, at));
    state.link = { seq: skippedSeq, hash: '', segment: at.segment, line: at.line };
    state.unhashed = bytes;
    return null;
  }
  const event = decodeLine(bytes, at);
  const wanted = event.seq >= state.fromSeq;
  if (wanted && state.expectPrev !== undefined && event.prev !== state.expectPrev) {
    throw lineError('CHAIN_BROKEN', at, `seq ${event.seq} does not chain from the expected head ${state.expectPrev}: the log was replaced or rewritten`);
  }
  if (state.link) {
    if (state.unhashed) state.link.hash = sha256Hex(state.unhashed);
    throwIf(checkLink(state.link, event.seq, event.prev, at));
  }
  state.unhashed = null;
  const hash = sha256Hex(bytes);
  state.link = { seq: event.seq, hash, segment: at.segment, line: at.line };
  if (!wanted) return null;
  state.expectPrev = undefined;
  return { event, hash, segment: at.segment, line: at.line };
}

function throwIf(error: MemError | null): void {
  if (error) throw error;
}
