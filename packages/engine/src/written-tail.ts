import { serializeEvent, sha256Hex, type LogEvent } from '@mem/core';
import type { LogHead } from '@mem/log';
import type { ProjectedEvent } from './projector.js';

/** At most this many written events are kept per project between catch-ups (memory bound). */
const KEEP_EVENTS = 10_000;

/**
 * The events this engine just appended, per project, kept until the catch-up that follows the
 * append. Trigger: every append that catches up (an item write of 100 events). Why: reading
 * them back from the log decoded, zod-parsed and hashed each line again — 8.2–10.7 ms CPU for
 * the last 100 events of a 100 k-event log (3 ms of it seeking to them), the largest JavaScript
 * cost of an add_items(100) (profiled, stop 33, load 6–9). Outcome: the catch-up hands the
 * projectors these very objects instead, only when they are exactly the log's tail: contiguous
 * (each one's `prev` is the hash of the one before) and ending at the log's head, whose hash is
 * the sha256 of the last one's line — so the lines the walk would read are these events'
 * bytes. Otherwise (another writer appended, a projection lags further back, the log was
 * replaced) the catch-up reads the log as before. The objects are the log's own (chainBatch
 * builds them as parseEvent would; batch.unit.spec.ts), never a caller's: only `Engine.append`
 * remembers, with what the log returned.
 */
export class WrittenTails {
  readonly #tails = new Map<string, ProjectedEvent[]>();

  /** Keeps `events` (one written batch, in seq order) after the project's earlier ones when they continue them. */
  remember(project: string, events: readonly LogEvent[]): void {
    if (events.length === 0) return;
    const tail = this.#tails.get(project);
    const last = tail?.at(-1);
    const continues = last !== undefined && events[0]!.seq === last.event.seq + 1;
    const kept = continues ? tail! : [];
    // Each event's hash is the next one's `prev`; the last one's is computed when it is used.
    if (continues) last.hash = events[0]!.prev;
    for (let index = 0; index < events.length; index += 1)
      kept.push({ event: events[index]!, hash: events[index + 1]?.prev ?? '' });
    if (kept.length > KEEP_EVENTS) this.#tails.delete(project);
    else this.#tails.set(project, kept);
  }

  /**
   * The remembered events from `fromSeq` through `head`, or null when they are not exactly the
   * log's tail there (the caller then reads the log).
   */
  take(project: string, fromSeq: number, head: LogHead): ProjectedEvent[] | null {
    const tail = this.#tails.get(project);
    if (!tail || tail.length === 0) return null;
    const first = tail[0]!.event.seq;
    const last = tail.at(-1)!;
    if (first > fromSeq || last.event.seq !== head.seq) return null;
    if (last.hash === '') last.hash = sha256Hex(serializeEvent(last.event));
    if (last.hash !== head.hash) return null;
    return tail.slice(fromSeq - first);
  }

  /** Drops what a catch-up to `seq` has applied (everything up to it). */
  applied(project: string, seq: number): void {
    const tail = this.#tails.get(project);
    if (tail && tail.at(-1)!.event.seq <= seq) this.#tails.delete(project);
  }
}
