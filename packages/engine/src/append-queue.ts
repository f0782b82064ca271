import type { Payload } from '@mem/core';
import type { AppendResult, QueuedBatch } from '@mem/log';

/** A batch of this process queued in the log and not yet durable: what it holds, and its fate. */
export interface InFlight {
  payloads: readonly Payload[];
  queued: QueuedBatch;
}

const ignore = () => undefined;

/**
 * The order of engine.append within one process, per project. Trigger: concurrent appends. Why:
 * a batch's checks must see every batch queued before it, but waiting for each to be durable
 * before checking the next meant no two appends ever shared an fsync. Outcome: admission (the
 * checks, then queueing in the log) runs in call order, and each admission is handed the batches
 * still in flight, to count with the log; a batch is queued while the ones before it are still
 * being written, and shares their group commit or the next. A caller's seqs come only from the
 * log's answer, which it gives after the fsync that made them durable.
 */
export class AppendQueue {
  /** Per project: settles once the last caller's batch is queued in the log or refused. */
  readonly #admitted = new Map<string, Promise<void>>();
  /** Per project: the batches queued and not yet settled, in queue order. */
  readonly #inFlight = new Map<string, InFlight[]>();

  /**
   * Runs `admit` (check, then queue) after the previous caller's admission, with the batches in
   * flight then. Resolves with the durable result, rejects with what refused or failed this one.
   */
  run(
    project: string,
    payloads: readonly Payload[],
    admit: (inFlight: readonly InFlight[]) => Promise<QueuedBatch>,
  ): Promise<AppendResult> {
    const previous = this.#admitted.get(project) ?? Promise.resolve();
    const admission = previous.then(async () => {
      // A batch known to have failed is not in the log and never will be: nothing counts on it.
      const inFlight = (this.#inFlight.get(project) ?? []).filter(({ queued }) => !queued.failed);
      const queued = await admit(inFlight);
      this.#track(project, { payloads, queued });
      return queued;
    });
    const admitted = admission.then(ignore, ignore);
    this.#admitted.set(project, admitted);
    void admitted.then(() => {
      if (this.#admitted.get(project) === admitted) this.#admitted.delete(project);
    });
    return admission.then((queued) => queued.durable);
  }

  /**
   * Runs `read` in the admission order of `project` without queueing a batch: after the
   * admissions before it, and before those after it (a reader of the append checks' fold).
   */
  inTurn<T>(project: string, read: () => Promise<T>): Promise<T> {
    const previous = this.#admitted.get(project) ?? Promise.resolve();
    const result = previous.then(read);
    const admitted = result.then(ignore, ignore);
    this.#admitted.set(project, admitted);
    void admitted.then(() => {
      if (this.#admitted.get(project) === admitted) this.#admitted.delete(project);
    });
    return result;
  }

  /** Settles once every batch in flight now is durable or failed. */
  async settled(project: string): Promise<void> {
    await Promise.all(
      (this.#inFlight.get(project) ?? []).map(({ queued }) => queued.durable.then(ignore, ignore)),
    );
  }

  #track(project: string, entry: InFlight): void {
    const list = this.#inFlight.get(project) ?? [];
    list.push(entry);
    this.#inFlight.set(project, list);
    void entry.queued.durable.then(ignore, ignore).then(() => {
      const left = (this.#inFlight.get(project) ?? []).filter((other) => other !== entry);
      if (left.length > 0) this.#inFlight.set(project, left);
      else this.#inFlight.delete(project);
    });
  }
}
