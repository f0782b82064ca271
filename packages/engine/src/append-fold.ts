import { genesisHash, hasErrorCode } from '@mem/core';
import type { EventLog, LogHead } from '@mem/log';
import { loadFold, removeFold, saveFold } from './append-fold-file.js';
import { ProvenanceCheck } from './provenance.js';
import { TombstoneSet } from './tombstones/tombstone-set.js';

/** What the append checks know of one project's log, folded up to `head`. */
export interface AppendFold {
  /** The last event folded: the next read starts after it and must chain from its hash. */
  readonly head: LogHead;
  /** Every node of the log with its levels (read only: a check layers its batch over it). */
  readonly provenance: ProvenanceCheck;
  /** Every tombstone of the log (read only). */
  readonly tombstones: TombstoneSet;
}

/**
 * A fold is saved once this many events were folded since it was last saved or loaded: a
 * fiftieth of the log, at least 1,000 and at most 20,000 events. Why: a save writes every node
 * (~9 bytes each, ~0.2 s at a million events), and what a fresh process reads after the saved
 * head is bounded by the same number of events (~0.3 s at 20,000).
 */
function saveEvery(seq: number): number {
  return Math.min(20_000, Math.max(1_000, Math.floor(seq / 50)));
}

/**
 * The provenance and tombstone folds of each project's log, kept between appends and advanced
 * by reading only the events after the last one folded; saved to `.mem/append-folds/` now and
 * then (append-fold-file.ts), so a fresh process starts from there instead of the log's start.
 * Trigger: every append of memory text read the project's whole log twice (seconds per write at
 * a million events), and a CLI writer, a fresh process each time, folded it once per command.
 * Why it stays right across processes: each advance reads from the folded head's seq with its
 * hash as the expected `prev`, so a log that another process replaced or truncated fails the
 * read (or, read to its end, shows another head), and a purge, the one rewrite of history,
 * appends a `purged` event; either way the fold is read again from the start. Events another
 * process appended are simply the tail. The log's own lines are the only input, so batches
 * still in flight are never folded in (a check layers them over the fold). A fold is taken out
 * while it advances: a second caller at the same time folds from the saved or empty one.
 */
export class AppendFolds {
  readonly #folds = new Map<string, { fold: AppendFold; saved: number }>();

  constructor(
    private readonly log: EventLog,
    private readonly stateDir: string,
  ) {}

  /** The project's fold, caught up with its log as it stands now. */
  async current(project: string): Promise<AppendFold> {
    const kept = this.#folds.get(project);
    // A read that failed may have folded part of the tail in: the next one starts afresh.
    this.#folds.delete(project);
    let start = kept;
    if (!start) {
      const loaded = await loadFold(this.stateDir, project);
      if (loaded) start = { fold: loaded, saved: loaded.head.seq };
    }
    let advanced = start ? await this.#advance(project, start.fold, true) : null;
    // A saved fold the log no longer continues from is of no use to any process: dropped.
    if (start && !kept && !advanced) await removeFold(this.stateDir, project);
    let saved = advanced ? start!.saved : 0;
    advanced ??= (await this.#advance(project, emptyFold(project), false))!;
    if (advanced.head.seq - saved >= saveEvery(advanced.head.seq)) {
      try {
        await saveFold(this.stateDir, project, advanced);
        saved = advanced.head.seq;
      } catch {
        // Trigger: the fold could not be saved (a full disk, a read-only state directory).
        // Why: it is a cache of the log; the checks already have what they need in memory.
        // Outcome: the append goes on; a later one tries to save again.
      }
    }
    this.#folds.set(project, { fold: advanced, saved });
    return advanced;
  }

  /**
   * `fold` advanced past its head by the log's events after it, or null when the log no longer
   * continues from it: the next event names another prev, the log ends elsewhere, or (unless
   * folding from the start) a purge rewrote history behind it.
   */
  async #advance(project: string, fold: AppendFold, tail: boolean): Promise<AppendFold | null> {
    let head = fold.head;
    try {
      for await (const { event, hash, segment, line } of this.log.read(project, {
        fromSeq: head.seq + 1,
        prev: head.hash,
      })) {
        if (tail && event.type === 'purged') return null;
        fold.provenance.apply(event, { segment, line });
        if (event.type === 'forgotten') fold.tombstones.add(event);
        head = { seq: event.seq, hash };
      }
    } catch (error) {
      // The event after our head names another prev: the log was replaced or rewritten. Any
      // other problem of the log is the full read's to report, as before.
      if (tail && hasErrorCode(error, 'CHAIN_BROKEN')) return null;
      throw error;
    }
    // Nothing after our head: the log must still end there, not shorter or elsewhere.
    if (tail && head === fold.head) {
      const now = await this.log.head(project);
      if (now.seq !== head.seq || now.hash !== head.hash) return null;
    }
    return { ...fold, head };
  }
}

/** The fold of no events: the start of a fold of the whole log. */
function emptyFold(project: string): AppendFold {
  return {
    head: { seq: 0, hash: genesisHash(project) },
    provenance: new ProvenanceCheck(project),
    tombstones: new TombstoneSet(),
  };
}
