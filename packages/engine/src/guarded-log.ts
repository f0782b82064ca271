import { assertProjectName, type Writer } from '@mem/core';
import {
  EventLog,
  type AppendResult,
  type EventLogOptions,
  type QueuedBatch,
  type ValidBatch,
} from '@mem/log';
import { readRecordedHead } from './recorded-heads.js';
import { findTailBreak, tailBreakError } from './tail-check.js';

/**
 * The event log behind `engine.append` (and every engine read): before an append, the
 * log's tail must agree with the head the projections last recorded, or the append would chain
 * onto a tampered line and bury the damage. The log package knows nothing of projections, so
 * the check lives here, in front of it; the recorded head is one small file under `.mem/`.
 */
export class GuardedEventLog extends EventLog {
  constructor(
    options: EventLogOptions,
    private readonly stateDir: string,
  ) {
    super(options);
  }

  override async append(
    project: string,
    payloads: readonly unknown[],
    writer: Writer,
  ): Promise<AppendResult> {
    await this.assertTailIntact(project);
    return super.append(project, payloads, writer);
  }

  override async appendValidated(project: string, batch: ValidBatch): Promise<AppendResult> {
    await this.assertTailIntact(project);
    return super.appendValidated(project, batch);
  }

  /**
   * queueValidated behind the tail check: resolves once the batch is queued in the log, so a
   * batch queued after this resolves lands after it (`after`: see EventLog.queueValidated).
   */
  async queueGuarded(
    project: string,
    batch: ValidBatch,
    after: readonly QueuedBatch[] = [],
    firstSeq?: number,
  ): Promise<QueuedBatch> {
    await this.assertTailIntact(project);
    return super.queueValidated(project, batch, after, firstSeq);
  }

  /** Throws CHAIN_BROKEN naming segment and line when the tail disagrees with the recorded head. */
  async assertTailIntact(project: string): Promise<void> {
    const recorded = readRecordedHead(this.stateDir, assertProjectName(project));
    if (!recorded) return;
    const found = await findTailBreak(this, project, recorded);
    if (found) throw tailBreakError(found, recorded);
  }
}
