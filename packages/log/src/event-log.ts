import { join } from 'node:path';
import { MemError, assertProjectName, type Writer } from '@mem/core';
import { appendBatch, queueValidBatch, type AppendContext, type QueuedBatch } from './append.js';
import type { ValidBatch } from './batch.js';
import { fsyncFile } from './durable-fs.js';
import { rememberedHead } from './head-memo.js';
import { listProjects } from './projects.js';
import { purgeLog, type PurgeInput, type PurgeResult } from './purge.js';
import { settlePurge } from './purge-settle.js';
import { withSegmentLock } from './segment-lock.js';
import { FIRST_SEGMENT } from './segment-name.js';
import { listSegmentsSync } from './segment-list.js';
import { readLogTail } from './tail.js';
import type {
  AppendResult,
  EventLogOptions,
  LogHead,
  LogTail,
  LoggedEvent,
  ReadOptions,
  VerifyResult,
} from './types.js';
import { verifyLog } from './verify.js';
import { walkLog } from './walk.js';

/** Default rotation threshold: 64 MiB per segment. */
export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

/**
 * The append-only event log of a data root: one hash-chained JSONL journal per project under
 * `dir/<project>/`. The only writer of log files; readers never lock and never see a torn line.
 */
export class EventLog {
  /** The log directory (`<root>/log`). */
  readonly dir: string;
  readonly segmentBytes: number;
  private readonly context: AppendContext;

  constructor(options: EventLogOptions) {
    const segmentBytes = options.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
    if (!Number.isSafeInteger(segmentBytes) || segmentBytes < 1) {
      throw new MemError(
        'INVALID_INPUT',
        `segmentBytes: expected a positive integer, got ${segmentBytes}`,
        { field: 'segmentBytes' },
      );
    }
    this.dir = options.dir;
    this.segmentBytes = segmentBytes;
    this.context = {
      dir: options.dir,
      segmentBytes,
      now: options.now ?? (() => new Date()),
      fsync: options.fsync ?? fsyncFile,
      tails: new Map(),
      heads: new Map(),
      groups: new Map(),
    };
  }

  /** Projects that have a journal, sorted. */
  projects(): Promise<string[]> {
    return listProjects(this.dir);
  }

  /**
   * Validates every payload and the writer, then appends them as one durable batch. Resolves
   * after fsync; concurrent appends of this log share one (group commit, append.ts). Throws the first invalid payload's MemError (its `line` is the 1-based position
   * in `payloads`) and writes nothing; an empty batch is INVALID_INPUT.
   */
  append(project: string, payloads: readonly unknown[], writer: Writer): Promise<AppendResult> {
    return appendBatch(this.context, project, payloads, writer);
  }

  /**
   * append for a batch `validateBatch` made (a caller that checks the batch first, as the
   * engine does): the same group commit, without validating the payloads a second time. Anything
   * validateBatch did not make is INVALID_INPUT.
   */
  async appendValidated(project: string, batch: ValidBatch): Promise<AppendResult> {
    return queueValidBatch(this.context, project, batch).durable;
  }

  /**
   * appendValidated in two steps: queues the batch in its group before returning (so batches
   * queue in call order) and answers with its durable result and whether it failed. `after`:
   * the queued batches the caller's checks counted on; if one fails, this one fails unwritten.
   * `firstSeq`: the seq its first event must get, or it fails unwritten (CONFLICT).
   */
  queueValidated(
    project: string,
    batch: ValidBatch,
    after: readonly QueuedBatch[] = [],
    firstSeq?: number,
  ): QueuedBatch {
    return queueValidBatch(this.context, project, batch, after, firstSeq);
  }

  /** Streams a project's events in seq order, each validated and chain-checked. Empty when the project has no journal. */
  read(project: string, options: ReadOptions = {}): AsyncIterable<LoggedEvent> {
    return walkLog(this.dir, project, options);
  }

  /**
   * The chain head without a lock: last complete line's seq and hash, or seq 0 and the genesis
   * hash. Not parsed again while the segment still ends in the line it was read from (head-memo.ts).
   * The directory is listed synchronously: a few segments list in ~10 us, where fs/promises'
   * thread-pool round trip cost ~30 us CPU more, three heads an item write (stop 35).
   */
  async head(projectName: string): Promise<LogHead> {
    const project = assertProjectName(projectName);
    const projectDir = join(this.dir, project);
    return rememberedHead(this.context.heads, projectDir, project, listSegmentsSync(projectDir));
  }

  /** Where the log ends, with the newest segment's line count: for naming the place of a problem. */
  async tail(projectName: string): Promise<LogTail> {
    const project = assertProjectName(projectName);
    const projectDir = join(this.dir, project);
    return readLogTail(projectDir, project, listSegmentsSync(projectDir));
  }

  /**
   * The one rewrite of history: replaces `input.text` everywhere in the project's log by its
   * marker and appends a `purged` event naming each rewritten line (purge.ts).
   */
  purge(project: string, input: PurgeInput, writer: Writer): Promise<PurgeResult> {
    return purgeLog(this.context, project, input, writer);
  }

  /** Finishes or undoes a purge a crash interrupted, under the project's lock (purge-settle.ts). */
  async settle(projectName: string): Promise<void> {
    const project = assertProjectName(projectName);
    const projectDir = join(this.dir, project);
    if (listSegmentsSync(projectDir).length > 0)
      await withSegmentLock(join(projectDir, FIRST_SEGMENT), async () => settlePurge(projectDir));
  }

  /** Walks the whole chain; reports the first break (project, segment, line) instead of throwing. */
  verify(project: string): Promise<VerifyResult> {
    return verifyLog(this.dir, project);
  }
}
