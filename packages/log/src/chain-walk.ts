import { sha256Hex, type MemError } from '@mem/core';
import { checkPrev, checkSeq, type WalkedLink } from './chain-check.js';
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
  /** Whether `link`'s line holds a purge marker: only such a line may differ from what its successor's prev says. */
  linkPurged: boolean;
  /** Breaks after a purged line, held until a `purged` event names them (or the walk ends). */
  deferred: DeferredBreak[];
  /** What the `purged` events walked so far accept: seq → the line's hash before and after. */
  accepted: Map<number, { old: string; new: string }>;
}

/** A prev mismatch after a line holding a purge marker, and the error it is if no `purged` event accepts it. */
export interface DeferredBreak {
  seq: number;
  old: string;
  new: string;
  error: MemError;
}

const MARKER = Buffer.from('[purged sha256:');

/** A fresh walk state. */
export function walkState(
  link: WalkedLink | null,
  fromSeq: number,
  expectPrev: string | undefined,
): WalkState {
  return {
    link,
    unhashed: null,
    fromSeq,
    expectPrev,
    linkPurged: false,
    deferred: [],
    accepted: new Map(),
  };
}

/**
 * The first deferred break no `purged` event accepts with exactly its old and new hash, or
 * null. Called when the walk ends: every `purged` event follows the lines it names.
 */
export function unacceptedBreak(state: WalkState): DeferredBreak | null {
  return (
    state.deferred.find((found) => {
      const accepted = state.accepted.get(found.seq);
      return accepted?.old !== found.old || accepted.new !== found.new;
    }) ?? null
  );
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
    state.linkPurged = bytes.includes(MARKER);
    return null;
  }
  const event = decodeLine(bytes, at);
  const wanted = event.seq >= state.fromSeq;
  if (wanted && state.expectPrev !== undefined && event.prev !== state.expectPrev) {
    throw lineError(
      'CHAIN_BROKEN',
      at,
      `seq ${event.seq} does not chain from the expected head ${state.expectPrev}: the log was replaced or rewritten`,
    );
  }
  if (state.link) {
    if (state.unhashed) state.link.hash = sha256Hex(state.unhashed);
    throwIf(checkSeq(state.link, event.seq, at));
    const broken = checkPrev(state.link, event.prev, at);
    // Trigger: the line before was rewritten by a purge. Why: its successor still names its
    // old hash, and only a later `purged` event can say that is the accepted rewrite.
    // Outcome: held until the walk ends; any other line's mismatch is reported here, as always.
    if (broken && state.linkPurged)
      state.deferred.push({
        seq: state.link.seq,
        old: event.prev,
        new: state.link.hash,
        error: broken,
      });
    else throwIf(broken);
  }
  if (event.type === 'purged')
    for (const line of event.lines) state.accepted.set(line.seq, { old: line.old, new: line.new });
  state.unhashed = null;
  const hash = sha256Hex(bytes);
  state.link = { seq: event.seq, hash, segment: at.segment, line: at.line };
  state.linkPurged = bytes.includes(MARKER);
  if (!wanted) return null;
  state.expectPrev = undefined;
  return { event, hash, segment: at.segment, line: at.line };
}

function throwIf(error: MemError | null): void {
  if (error) throw error;
}
