import { contentSha256, memoryLines, type EventOf, type LogEvent } from '@mem/core';
import type { RegistryContext } from '../context.js';

/** A line or memory a ref can name, with its text (kept in memory only, never returned by history). */
export interface LedgerTarget {
  sha256: string;
  kind: 'line' | 'memory';
  text: string;
  /** The lines it covers: itself for a line, every line for a memory. */
  lines: { sha256: string; text: string }[];
  /** For a line: the first memory it appeared in. */
  memory?: string;
}

export type MutationEvent = EventOf<'forgotten' | 'superseded' | 'confirmed' | 'resurfaced'>;

/**
 * One project's memory as its log states it, folded for the correction operations: every line
 * and memory a ref may name, and the mutation ledger. Read from the log, the only truth, so a
 * correction never depends on how far a projection has caught up.
 */
export interface MemoryLedger {
  targets: Map<string, LedgerTarget>;
  /**
   * Line or memory sha → the seq of the `forgotten` event that tombstoned it: its target, and
   * every line it refuses (the copies and rewordings a forget takes out with its target).
   */
  forgotten: Map<string, number>;
  /** Line or memory sha → the target of the `forgotten` event that tombstoned it (itself for a target). */
  tombstoneOf: Map<string, string>;
  /** Target sha → the content sha that first superseded it. */
  superseded: Map<string, string>;
  mutations: MutationEvent[];
}

export async function readLedger(
  ctx: Pick<RegistryContext, 'engine'>,
  project: string,
): Promise<MemoryLedger> {
  const ledger = emptyLedger();
  for await (const { event } of ctx.engine.read(project)) fold(ledger, event);
  return ledger;
}

/** The ledger of events already read: a correction that reads the log once for its checks and its vault guard. */
export function ledgerOf(events: Iterable<LogEvent>): MemoryLedger {
  const ledger = emptyLedger();
  for (const event of events) fold(ledger, event);
  return ledger;
}

/** Every event of a project's log, in order. */
export async function readEvents(
  ctx: Pick<RegistryContext, 'engine'>,
  project: string,
): Promise<LogEvent[]> {
  const events: LogEvent[] = [];
  for await (const { event } of ctx.engine.read(project)) events.push(event);
  return events;
}

function emptyLedger(): MemoryLedger {
  return {
    targets: new Map(),
    forgotten: new Map(),
    tombstoneOf: new Map(),
    superseded: new Map(),
    mutations: [],
  };
}

function fold(ledger: MemoryLedger, event: LogEvent): void {
  switch (event.type) {
    case 'memory': {
      const lines = memoryLines(event).map((line) => ({ sha256: line.sha256, text: line.text }));
      if (!ledger.targets.has(event.sha256))
        ledger.targets.set(event.sha256, {
          sha256: event.sha256,
          kind: 'memory',
          text: event.text,
          lines,
        });
      for (const line of lines) {
        if (!ledger.targets.has(line.sha256))
          ledger.targets.set(line.sha256, {
            sha256: line.sha256,
            kind: 'line',
            text: line.text,
            lines: [line],
            memory: event.sha256,
          });
      }
      return;
    }
    case 'superseded': {
      ledger.mutations.push(event);
      // The first supersession holds, as in every projection (a later one is refused now).
      if (!ledger.superseded.has(event.target))
        ledger.superseded.set(event.target, event.after_sha256);
      // The replacing text is a line of its own: it can be confirmed, superseded or forgotten next.
      const line = { sha256: contentSha256(event.text), text: event.text };
      if (!ledger.targets.has(line.sha256))
        ledger.targets.set(line.sha256, {
          sha256: line.sha256,
          kind: 'line',
          text: line.text,
          lines: [line],
        });
      return;
    }
    case 'line_added': {
      // A line a person wrote in the vault: a line of its own, named like any other.
      if (!ledger.targets.has(event.sha256))
        ledger.targets.set(event.sha256, {
          sha256: event.sha256,
          kind: 'line',
          text: event.text,
          lines: [{ sha256: event.sha256, text: event.text }],
        });
      return;
    }
    case 'forgotten':
      ledger.mutations.push(event);
      // The lines it refuses too, as every projection folds it. Trigger: `mem forget` of a line
      // whose copy (the L2 `[query] ` line, a rewording in another note) it took out with it.
      // Why: only the target was recorded here, so the copy could still be superseded or
      // forgotten again, by `mem supersede`, vault capture or review, under the lock or not.
      // Outcome: CONFLICT naming the tombstone, nothing appended.
      markForgotten(ledger, event.target, event.target, event.seq);
      for (const line of event.refuses) markForgotten(ledger, line.sha256, event.target, event.seq);
      return;
    case 'confirmed':
    case 'resurfaced':
      ledger.mutations.push(event);
      return;
    default:
      return;
  }
}

/** Records `sha` as tombstoned by the forget of `tombstone` at `seq`; the first forget holds. */
export function markForgotten(
  ledger: MemoryLedger,
  sha: string,
  tombstone: string,
  seq: number,
): void {
  if (ledger.forgotten.has(sha)) return;
  ledger.forgotten.set(sha, seq);
  ledger.tombstoneOf.set(sha, tombstone);
}
