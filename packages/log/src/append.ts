import { closeSync, existsSync, fstatSync, ftruncateSync, unlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { MemError, assertProjectName, ioError, type Payload } from '@mem/core';
import { LOG_WRITER, chainBatch, validateBatch, type BatchEntry, type ChainLink } from './batch.js';
import { readChainHead } from './chain-head.js';
import { fsyncDirectory, fsyncFile, openSegment, writeFully } from './durable-fs.js';
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
  tails: Map<string, CachedTail>;
}

/**
 * Appends a validated batch under the project's lock: repair a torn tail, chain after the
 * head, rotate if the batch would overflow the segment, one write, fsync, release. Resolves
 * only after fsync. Invalid input throws before any file is touched.
 */
export async function appendBatch(
  context: AppendContext,
  projectName: string,
  payloads: readonly unknown[],
  writer: unknown,
): Promise<AppendResult> {
  const project = assertProjectName(projectName);
  const batch = validateBatch(payloads, writer);
  const projectDir = join(context.dir, project);
  const lockPath = join(projectDir, FIRST_SEGMENT);
  return withSegmentLock(lockPath, async (lockFd) => {
    settlePurge(projectDir);
    try {
      return await appendLocked(context, project, projectDir, lockFd, batch);
    } catch (error) {
      // Whatever failed, the cached tail may no longer describe the file.
      context.tails.delete(project);
      throw error;
    }
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

async function appendLocked(
  context: AppendContext,
  project: string,
  projectDir: string,
  lockFd: number,
  batch: { payloads: Payload[]; writer: BatchEntry['writer'] },
): Promise<AppendResult> {
  const newest = lastSegmentSync(projectDir, context.tails.get(project)?.segment);
  const newestPath = join(projectDir, newest);
  const newestFd = newest === FIRST_SEGMENT ? lockFd : openSegment(newestPath);
  try {
    const stat = fstatSync(newestFd);
    const tail = locateTail(context, project, projectDir, newest, newestFd, stat);
    const { head, size, recovery } = tail;
    const entries: BatchEntry[] = batch.payloads.map((payload) => ({
      payload,
      writer: batch.writer,
    }));
    if (recovery) entries.unshift({ payload: recovery, writer: LOG_WRITER });
    const chained = chainBatch(project, head, entries, context.now().toISOString());
    // Rotate before, never within, a batch; an empty segment takes any batch, however large.
    const rotate = size > 0 && size + chained.bytes.length > context.segmentBytes;
    const target = rotate ? nextSegmentName(newest) : newest;
    const written = await writeBatch(
      {
        project,
        projectDir,
        newestPath,
        newestFd,
        tail,
        rotatePath: rotate ? join(projectDir, target) : null,
      },
      chained.bytes,
    );
    const ino = rotate ? written.ino : stat.ino;
    context.tails.set(project, {
      segment: target,
      ino,
      size: (rotate ? 0 : size) + chained.bytes.length,
      head: chained.head,
    });
    const appended = chained.events.slice(recovery ? 1 : 0);
    return {
      project,
      appended: appended.length,
      first_seq: appended[0]!.seq,
      last_seq: chained.head.seq,
      events: chained.events,
    };
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
}

/**
 * Cuts a torn tail, then writes and fsyncs the batch. All or nothing: if any step fails (a
 * full disk gives a short write, then ENOSPC), every byte it wrote is taken back — the torn
 * tail put back, a segment it created removed — and made durable before the error (NO_SPACE or
 * IO_FAILED, naming the file) leaves the log. Only chaining came before, so nothing is left to undo.
 */
async function writeBatch(plan: WritePlan, bytes: Uint8Array): Promise<{ ino: number }> {
  const { tail, newestFd, newestPath, rotatePath } = plan;
  let at = newestPath;
  let targetFd: number | null = null;
  try {
    if (tail.recovery) {
      ftruncateSync(newestFd, tail.recovery.truncated_at);
      await fsyncFile(newestFd);
    }
    if (rotatePath !== null) {
      at = rotatePath;
      targetFd = openSegment(rotatePath);
    }
    await writeFully(targetFd ?? newestFd, bytes);
    await fsyncFile(targetFd ?? newestFd);
    return { ino: fstatSync(targetFd ?? newestFd).ino };
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
  if (tail.torn) await writeFully(newestFd, tail.torn);
  await fsyncFile(newestFd);
}
