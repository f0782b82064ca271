import { contentSha256, type EventOf } from '@mem/core';
import { rewords, termHashes } from './reword.js';

/** A tombstone a text ran into: which `forgotten` event, and how it matched. */
export interface TombstoneHit {
  /** The forgotten event's target sha: the tombstone's name in errors and in history. */
  tombstone: string;
  seq: number;
  reason: string;
  match: 'exact' | 'reword';
}

/** One refused line of a tombstone, as the set keeps it (and a saved fold records it). */
export interface TombstoneLine {
  sha256: string;
  terms: readonly string[];
  tombstone: string;
  seq: number;
  reason: string;
}

/**
 * A project's deliberate tombstones, folded from its `forgotten` events in log order, and the
 * one question every writer asks of them: does this line say again what was forgotten? The
 * exact normal-form hash first, then rewordings (reword.ts); the newest tombstone wins a tie.
 */
export class TombstoneSet {
  private readonly exact = new Map<string, TombstoneLine>();
  private readonly lines: TombstoneLine[] = [];

  /** A set holding the same lines as `other`, in the same order, that `other`'s later adds do not change. */
  static copyOf(other: TombstoneSet): TombstoneSet {
    const copy = new TombstoneSet();
    for (const entry of other.entries()) copy.restore(entry);
    return copy;
  }

  get size(): number {
    return this.lines.length;
  }

  add(event: Pick<EventOf<'forgotten'>, 'target' | 'seq' | 'reason' | 'refuses'>): void {
    for (const line of event.refuses) {
      this.restore({
        sha256: line.sha256,
        terms: line.terms,
        tombstone: event.target,
        seq: event.seq,
        reason: event.reason,
      });
    }
  }

  /** Every refused line in the order added (a saved fold records them). */
  entries(): readonly TombstoneLine[] {
    return this.lines;
  }

  /** Adds a line `entries` gave, in the same order. */
  restore(entry: TombstoneLine): void {
    this.exact.set(entry.sha256, entry);
    this.lines.push(entry);
  }

  /** The tombstone `text` runs into, or null. */
  match(text: string): TombstoneHit | null {
    const exact = this.exact.get(contentSha256(text));
    if (exact) return hit(exact, 'exact');
    const terms = termHashes(text);
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const line = this.lines[i]!;
      if (rewords(terms, line.terms)) return hit(line, 'reword');
    }
    return null;
  }
}

function hit(line: TombstoneLine, match: TombstoneHit['match']): TombstoneHit {
  return { tombstone: line.tombstone, seq: line.seq, reason: line.reason, match };
}

/** The tombstones of one project's events (any stream of them, in log order). */
export async function foldTombstones(
  events: AsyncIterable<{ event: { type: string } }>,
): Promise<TombstoneSet> {
  const set = new TombstoneSet();
  for await (const { event } of events) {
    if (event.type === 'forgotten') set.add(event as EventOf<'forgotten'>);
  }
  return set;
}
