import { closeSync, existsSync, fstatSync, ftruncateSync, unlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { MemError, assertProjectName, ioError, type Payload } from '@mem/core';
import {
  LOG_WRITER,
  chainBatch,
  isValidBatch,
  lineBufferFor,
  notValidated,
  validateBatch,
  type BatchEntry,
  type ChainLink,
  type ValidBatch,
} from './batch.js';
import { readChainHead } from './chain-head.js';
import { fsyncDirectory, openSegment, writeFully, type FsyncFile } from './durable-fs.js';
import { rememberWritten, type HeadMemo } from './head-memo.js';
import { settlePurge } from './purge-settle.js';
import { withSegmentLock } from './segment-lock.js';
import { lastSegmentSync, listSegmentsSync } from './segment-list.js';
import { FIRST_SEGMENT, nextSegmentName } from './segment-name.js';
import { readRange, scanSegmentEnd, sha256Range } from './segment-scan.js';
import type { AppendResult } from './types.js';

/** What this process last saw at a project's end; trusted only while fstat shows the same file and size. */
export interface CachedTail {
  segment: string;
  ino: number;
  size: number;
  head: ChainLink;
}

/** The append settings and per-process state of one EventLog. */
export interface AppendContext {
  dir: string;
  segmentBytes: number;
  now: () => Date;
  /** Makes a segment's bytes durable: fsyncFile, or a test's counting hook around it. */
  fsync: FsyncFile;
  tails: Map<string, CachedTail>;
  /** What head() last read or an append last wrote, per project (head-memo.ts): compared with the file before use. */
  heads: Map<string, HeadMemo>;
  /** Per project, the group of batches waiting for the lock: the next write + fsync. */
  groups: Map<string, CommitGroup>;
}

/** A batch queued in a group commit: its durable result, and whether its group failed. */
export interface QueuedBatch {
  readonly durable: Promise<AppendResult>;
  /** True once nothing of it can be written any more; set under the lock, before a later group commits. */
  readonly failed: boolean;
}

/** A validated batch waiting in a group, and how to answer its caller. */
interface PendingBatch {
  payloads: readonly Payload[];
  writer: BatchEntry['writer'];
  /** Batches queued before it that its caller's checks counted on: if one failed, so does this. */
  after: readonly QueuedBatch[];
  /** The seq its first event must get (ids derived from it are in its payloads), or it is refused unwritten. */
  firstSeq: number | undefined;
  state: { failed: boolean };
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** Batches that will share one write and one fsync. */
export interface CommitGroup {
  batches: PendingBatch[];
}

/**
 * Appends a validated batch: invalid input throws before any file is touched. Group commit:
 * the batch joins the project's open group — the one waiting for the lock while an earlier
 * group's fsync is in flight — or opens one. A group takes the lock, repairs a torn tail,
 * chains its batches one after the other, rotates if they would overflow the segment, writes
 * them in one call, fsyncs once and releases. Each caller resolves, with its own seqs, only
 * after that fsync; if the write or fsync fails, every batch of the group fails and nothing
 * of any is left in the log. Async, so that invalid input is a rejection like every other failure.
 */
export async function appendBatch(
  context: AppendContext,
  projectName: string,
  payloads: readonly unknown[],
  writer: unknown,
): Promise<AppendResult> {
  const project = assertProjectName(projectName);
  return enqueue(
    context,
    project,
    validateBatch(payloads, writer),
    [],
    { failed: false },
    undefined,
  );
}

/**
 * Queues a batch validateBatch made already (the engine checks it first: no second validation)
 * in the project's open group, before it returns, so batches queue in call order. `after`: the
 * queued batches the caller's checks counted on (a memory citing evidence still in flight); if
 * one of them fails, this one fails too (IO_FAILED) and nothing of it is written. `firstSeq`:
 * the seq the batch's first event must get (an optimistic expectation, decided under the lock);
 * if another writer got there first, the batch fails unwritten with CONFLICT.
 */
export function queueValidBatch(
  context: AppendContext,
  projectName: string,
  batch: ValidBatch,
  after: readonly QueuedBatch[] = [],
  firstSeq?: number,
): QueuedBatch {
  const project = assertProjectName(projectName);
  if (!isValidBatch(batch)) throw notValidated();
  const state = { failed: false };
  const durable = enqueue(context, project, batch, after, state, firstSeq);
  return {
    durable,
    get failed() {
      return state.failed;
    },
  };
}

/** Joins the project's open group, or opens one and starts committing it. */
function enqueue(
  context: AppendContext,
  project: string,
  batch: ValidBatch,
  after: readonly QueuedBatch[],
  state: { failed: boolean },
  firstSeq: number | undefined,
): Promise<AppendResult> {
  return new Promise((resolve, reject) => {
    const pending = {
      payloads: batch.payloads,
      writer: batch.writer,
      after,
      firstSeq,
      state,
      resolve,
      reject,
    };
    const open = context.groups.get(project);
    if (open) {
      open.batches.push(pending);
      return;
    }
    const group: CommitGroup = { batches: [pending] };
    context.groups.set(project, group);
    void commitGroup(context, project, group);
  });
}

/** The refusal of a batch whose checks counted on a batch queued before it that then failed. */
function earlierBatchFailed(project: string): MemError {
  return new MemError(
    'IO_FAILED',
    `append to ${project}: a batch queued before this one, which its checks counted on, failed to be written; nothing of this batch was written (append it again)`,
    { project, rolled_back: true },
  );
}

/** The refusal of a batch whose first event would not get the seq it was built for. */
function seqMoved(project: string, expected: number, actual: number): MemError {
  return new MemError(
    'CONFLICT',
    `append to ${project}: the batch was built for seq ${expected}, but the log is at seq ${actual - 1} (another writer appended first); nothing of it was written`,
    { project, expected_first_seq: expected, first_seq: actual, rolled_back: true },
  );
}

/** Commits one group under the project's lock and answers each of its callers. */
async function commitGroup(context: AppendContext, project: string, group: CommitGroup) {
  const projectDir = join(context.dir, project);
  const close = () => {
    // From here on the group is fixed: later writers open the next one.
    if (context.groups.get(project) === group) context.groups.delete(project);
  };
  let live = group.batches;
  let results: (AppendResult | MemError)[];
  try {
    results = await withSegmentLock(join(projectDir, FIRST_SEGMENT), async (lockFd) => {
      close();
      try {
        settlePurge(projectDir);
        // Trigger: a batch was checked against batches queued before it, and one of those
        // failed. Why: its memory may cite evidence that is not in the log. Outcome: it fails
        // alone, unwritten; the earlier groups' fates are known here, under the lock.
        live = group.batches.filter((batch) => {
          if (!batch.after.some((earlier) => earlier.failed)) return true;
          batch.state.failed = true;
          batch.reject(earlierBatchFailed(project));
          return false;
        });
        if (live.length === 0) return [];
        return await appendLocked(context, project, projectDir, lockFd, live);
      } catch (error) {
        // Whatever failed, the cached tail may no longer describe the file.
        context.tails.delete(project);
        context.heads.delete(project);
        for (const batch of live) batch.state.failed = true;
        throw error;
      }
    });
  } catch (error) {
    close();
    for (const batch of group.batches) batch.reject(error);
    return;
  }
  live.forEach((batch, index) => {
    const result = results[index]!;
    if (result instanceof MemError) batch.reject(result);
    else batch.resolve(result);
  });
}

/** Where the newest segment's complete lines end, the head there, and the recovery a torn tail needs. */
interface SegmentTailState {
  head: ChainLink;
  size: number;
  recovery: Extract<Payload, { type: 'recovery' }> | null;
  /** The torn bytes the recovery cuts off, kept to put back if the batch then fails. */
  torn: Buffer | null;
}

/**
 * Trusts the cached tail while fstat shows the same newest segment, inode and size (every
 * writer only grows a segment, so anything else changed it). Otherwise scans the end of the
 * newest segment backwards: a torn last line becomes a recovery payload, the head is re-read.
 */
function locateTail(
  context: AppendContext,
  project: string,
  projectDir: string,
  newest: string,
  fd: number,
  stat: Stats,
): SegmentTailState {
  const cached = context.tails.get(project);
  if (cached && cached.segment === newest && cached.ino === stat.ino && cached.size === stat.size) {
    return { head: cached.head, size: stat.size, recovery: null, torn: null };
  }
  const end = scanSegmentEnd(fd, stat.size);
  const head = readChainHead(projectDir, project, listSegmentsSync(projectDir), {
    segment: newest,
    fd,
    end,
  });
  if (end.end === stat.size) return { head, size: end.end, recovery: null, torn: null };
  // A crash tore the last line: it goes, and a recovery event says what went.
  const recovery = {
    type: 'recovery' as const,
    segment: newest,
    truncated_at: end.end,
    dropped_bytes: stat.size - end.end,
    dropped_sha256: sha256Range(fd, end.end, stat.size),
  };
  return { head, size: end.end, recovery, torn: readRange(fd, end.end, stat.size) };
}

/**
 * The batches of a group that keep their expectations: a batch built for a first seq it would
 * not get is refused (CONFLICT), and so is a later one that counted on a refused one. Trigger:
 * a batch's payloads name ids derived from its own seqs (add_items' in-batch refs). Why: another
 * writer (another process, an ingest) may append between the caller's read of the head and this
 * lock. Outcome: it is refused unwritten; the caller reads the head again and rebuilds.
 */
function keepExpected(
  project: string,
  batches: readonly PendingBatch[],
  firstSeq: number,
): (PendingBatch | MemError)[] {
  let next = firstSeq;
  return batches.map((batch) => {
    if (batch.after.some((earlier) => earlier.failed)) {
      batch.state.failed = true;
      return earlierBatchFailed(project);
    }
    if (batch.firstSeq !== undefined && batch.firstSeq !== next) {
      batch.state.failed = true;
      return seqMoved(project, batch.firstSeq, next);
    }
    next += batch.payloads.length;
    return batch;
  });
}

async function appendLocked(
  context: AppendContext,
  project: string,
  projectDir: string,
  lockFd: number,
  group: readonly PendingBatch[],
): Promise<(AppendResult | MemError)[]> {
  const newest = lastSegmentSync(projectDir, context.tails.get(project)?.segment);
  const newestPath = join(projectDir, newest);
  const newestFd = newest === FIRST_SEGMENT ? lockFd : openSegment(newestPath);
  try {
    const stat = fstatSync(newestFd);
    const tail = locateTail(context, project, projectDir, newest, newestFd, stat);
    const { size, recovery } = tail;
    // A recovery leads the first batch written, so that batch starts one seq later.
    const decided = keepExpected(project, group, tail.head.seq + 1 + (recovery ? 1 : 0));
    const batches = decided.filter((d): d is PendingBatch => !(d instanceof MemError));
    if (batches.length === 0) return decided as MemError[];
    // Each batch chains after the one before it, with its own ts; a recovery leads the first.
    let head = tail.head;
    // One buffer for the whole group: the bytes written are the lines as chained, not a join.
    const out = lineBufferFor(
      batches.reduce((sum, batch) => sum + batch.payloads.length, recovery ? 1 : 0),
    );
    const chained = batches.map((batch, index) => {
      const entries: BatchEntry[] = batch.payloads.map((payload) => ({
        payload,
        writer: batch.writer,
      }));
      const lead = index === 0 && recovery !== null;
      if (lead) entries.unshift({ payload: recovery, writer: LOG_WRITER });
      const link = chainBatch(project, head, entries, context.now().toISOString(), out);
      head = link.head;
      return { link, lead };
    });
    const bytes = out.bytes();
    // Rotate before, never within, a group; an empty segment takes any group, however large.
    const rotate = size > 0 && size + bytes.length > context.segmentBytes;
    const target = rotate ? nextSegmentName(newest) : newest;
    const written = await writeBatch(
      {
        project,
        projectDir,
        newestPath,
        newestFd,
        tail,
        rotatePath: rotate ? join(projectDir, target) : null,
        fsync: context.fsync,
      },
      bytes,
    );
    context.tails.set(project, {
      segment: target,
      ino: rotate ? written.ino : stat.ino,
      size: (rotate ? 0 : size) + bytes.length,
      head,
    });
    rememberWritten(context.heads, project, target, rotate ? 0 : size, bytes, head);
    const byBatch = new Map(
      chained.map(({ link, lead }, index) => {
        const appended = link.events.slice(lead ? 1 : 0);
        const result: AppendResult = {
          project,
          appended: appended.length,
          first_seq: appended[0]!.seq,
          last_seq: link.head.seq,
          events: link.events,
        };
        return [batches[index]!, result] as const;
      }),
    );
    return decided.map((d) => (d instanceof MemError ? d : byBatch.get(d)!));
  } finally {
    if (newestFd !== lockFd) closeSync(newestFd);
  }
}

interface WritePlan {
  project: string;
  projectDir: string;
  newestPath: string;
  newestFd: number;
  tail: SegmentTailState;
  /** The new segment the batch goes to, or null for the newest one. */
  rotatePath: string | null;
  fsync: FsyncFile;
}

/**
 * Cuts a torn tail, then writes and fsyncs the batch. All or nothing: if any step fails (a
 * full disk gives a short write, then ENOSPC), every byte it wrote is taken back — the torn
 * tail put back, a segment it created removed — and made durable before the error (NO_SPACE or
 * IO_FAILED, naming the file) leaves the log. Only chaining came before, so nothing is left to undo.
 */
async function writeBatch(plan: WritePlan, bytes: Uint8Array): Promise<{ ino: number }> {
  const { tail, newestFd, newestPath, rotatePath, fsync } = plan;
  let at = newestPath;
  let targetFd: number | null = null;
  try {
    if (tail.recovery) {
      ftruncateSync(newestFd, tail.recovery.truncated_at);
      await fsync(newestFd);
    }
    if (rotatePath !== null) {
      at = rotatePath;
      targetFd = openSegment(rotatePath);
    }
    writeFully(targetFd ?? newestFd, bytes);
    await fsync(targetFd ?? newestFd);
    // Only a new segment has a new inode to remember.
    return { ino: targetFd === null ? 0 : fstatSync(targetFd).ino };
  } catch (error) {
    if (targetFd !== null) closeSync(targetFd);
    targetFd = null;
    const rollback = await rollBack(plan).then(
      () => null,
      (failure: unknown) => failure,
    );
    const details = { project: plan.project, rolled_back: rollback === null };
    const failed = ioError('append to', at, error, { details });
    if (rollback === null)
      throw new MemError(
        failed.code,
        `${failed.message}; nothing of the batch was written`,
        failed.details,
        { cause: error },
      );
    // Trigger: even truncating back failed. Why: the segment may now end in lines of the failed
    // batch. Outcome: say so, so that nobody takes the log for whole without verifying it.
    throw new MemError(
      failed.code,
      `${failed.message}; undoing the partial write failed too (${(rollback as Error).message}): run \`mem verify\``,
      failed.details,
      { cause: error },
    );
  } finally {
    if (targetFd !== null) closeSync(targetFd);
  }
}

/** Puts the newest segment back to its bytes before the batch and removes a segment the batch created. */
async function rollBack(plan: WritePlan): Promise<void> {
  const { tail, newestFd, rotatePath } = plan;
  if (rotatePath !== null && existsSync(rotatePath)) {
    unlinkSync(rotatePath);
    fsyncDirectory(plan.projectDir);
  }
  // tail.size is where the complete lines end: the torn bytes, if any, go back after it.
  ftruncateSync(newestFd, tail.size);
  if (tail.torn) writeFully(newestFd, tail.torn);
  await plan.fsync(newestFd);
}
