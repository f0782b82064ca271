import { genesisHash, hasErrorCode } from '@mem/core';
import type { EventLog, LogHead } from '@mem/log';
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
 * The provenance and tombstone folds of each project's log, kept between appends and advanced
 * by reading only the events after the last one folded. Trigger: every append of memory text
 * read the project's whole log twice (seconds per write at a million events). Why it stays
 * right across processes: each advance reads from the folded head's seq with its hash as the
 * expected `prev`, so a log that another process replaced or truncated fails the read (or, read
 * to its end, shows another head), and a purge, the one rewrite of history, appends a `purged`
 * event; either way the fold is read again from the start. Events another process appended are
 * simply the tail. Advances of one project run one at a time; the log's own lines are the only
 * input, so batches still in flight are never folded in (a check layers them over the fold).
 */
export class AppendFolds {
  readonly #folds = new Map<string, AppendFold>();
  readonly #advancing = new Map<string, Promise<AppendFold>>();

  constructor(private readonly log: EventLog) {}

  /** The project's fold, caught up with its log as it stands now. */
  current(project: string): Promise<AppendFold> {
    const previous = this.#advancing.get(project);
    const next = (previous ?? Promise.resolve()).then(
      () => this.#advance(project),
      () => this.#advance(project),
    );
    this.#advancing.set(project, next);
    const forget = () => {
      if (this.#advancing.get(project) === next) this.#advancing.delete(project);
    };
    next.then(forget, forget);
    return next;
  }

  async #advance(project: string): Promise<AppendFold> {
    const fold = this.#folds.get(project);
    // A read that failed may have folded part of the tail in: the next one starts afresh.
    this.#folds.delete(project);
    const advanced = fold ? await this.#tail(project, fold) : null;
    const current = advanced ?? (await this.#fromStart(project));
    this.#folds.set(project, current);
    return current;
  }

  /** `fold` advanced past its head, or null when the log no longer continues from it. */
  async #tail(project: string, fold: AppendFold): Promise<AppendFold | null> {
    let head = fold.head;
    try {
      for await (const { event, hash, segment, line } of this.log.read(project, {
        fromSeq: head.seq + 1,
        prev: head.hash,
      })) {
        if (event.type === 'purged') return null;
        fold.provenance.apply(event, { segment, line });
        if (event.type === 'forgotten') fold.tombstones.add(event);
        head = { seq: event.seq, hash };
      }
    } catch (error) {
      // The event after our head names another prev: the log was replaced or rewritten. Any
      // other problem of the log is the full read's to report, as before.
      if (hasErrorCode(error, 'CHAIN_BROKEN')) return null;
      throw error;
    }
    // Nothing after our head: the log must still end there, not shorter or elsewhere.
    if (head === fold.head) {
      const now = await this.log.head(project);
      if (now.seq !== head.seq || now.hash !== head.hash) return null;
    }
    return { ...fold, head };
  }

  async #fromStart(project: string): Promise<AppendFold> {
    const provenance = new ProvenanceCheck(project);
    const tombstones = new TombstoneSet();
    let head: LogHead = { seq: 0, hash: genesisHash(project) };
    for await (const { event, hash, segment, line } of this.log.read(project)) {
      provenance.apply(event, { segment, line });
      if (event.type === 'forgotten') tombstones.add(event);
      head = { seq: event.seq, hash };
    }
    return { head, provenance, tombstones };
  }
}
