import { closeSync, fstatSync, ftruncateSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { assertProjectName, type Payload } from '@mem/core';
import { LOG_WRITER, chainBatch, validateBatch, type BatchEntry, type ChainLink } from './batch.js';
import { readChainHead } from './chain-head.js';
import { fsyncFile, openSegment, writeFully } from './durable-fs.js';
import { withProjectLock } from './project-lock.js';
import { lastSegmentSync, listSegmentsSync } from './segment-list.js';
import { FIRST_SEGMENT, nextSegmentName } from './segment-name.js';
import { scanSegmentEnd, sha256Range } from './segment-scan.js';
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
export async function appendBatch(context: AppendContext, projectName: string, payloads: readonly unknown[], writer: unknown): Promise<AppendResult> {
  const project = assertProjectName(projectName);
  const batch = validateBatch(payloads, writer);
  const projectDir = join(context.dir, project);
  const lockPath = join(projectDir, FIRST_SEGMENT);
  return withProjectLock(resolve(lockPath), () => openSegment(lockPath), closeSync, async (lockFd) => {
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
}

/**
 * Trusts the cached tail while fstat shows the same newest segment, inode and size (every
 * writer only grows a segment, so anything else changed it). Otherwise scans the end of the
 * newest segment backwards: a torn last line becomes a recovery payload, the head is re-read.
 */
function locateTail(context: AppendContext, project: string, projectDir: string, newest: string, fd: number, stat: Stats): SegmentTailState {
  const cached = context.tails.get(project);
  if (cached && cached.segment === newest && cached.ino === stat.ino && cached.size === stat.size) {
    return { head: cached.head, size: stat.size, recovery: null };
  }
  const end = scanSegmentEnd(fd, stat.size);
  const head = readChainHead(projectDir, project, listSegmentsSync(projectDir), { segment: newest, fd, end });
  if (end.end === stat.size) return { head, size: end.end, recovery: null };
  // A crash tore the last line: it goes, and a recovery event says what went.
  const recovery = {
    type: 'recovery' as const,
    segment: newest,
    offset: end.end,
    dropped_bytes: stat.size - end.end,
    dropped_sha256: sha256Range(fd, end.end, stat.size),
  };
  return { head, size: end.end, recovery };
}

async function appendLocked(
  context: AppendContext,
  project: string,
  projectDir: string,
  lockFd: number,
  batch: { payloads: Payload[]; writer: BatchEntry['writer'] },
): Promise<AppendResult> {
  const newest = lastSegmentSync(projectDir, context.tails.get(project)?.segment);
  const newestFd = newest === FIRST_SEGMENT ? lockFd : openSegment(join(projectDir, newest));
  try {
    const stat = fstatSync(newestFd);
    const { head, size, recovery } = locateTail(context, project, projectDir, newest, newestFd, stat);
    const entries: BatchEntry[] = batch.payloads.map((payload) => ({ payload, writer: batch.writer }));
    if (recovery) entries.unshift({ payload: recovery, writer: LOG_WRITER });
    const chained = chainBatch(project, head, entries, context.now().toISOString());
    // Truncate only now that the head parsed and the batch chained: a refused append changes nothing.
    if (recovery) {
      ftruncateSync(newestFd, recovery.offset);
      await fsyncFile(newestFd);
    }
    // Rotate before, never within, a batch; an empty segment takes any batch, however large.
    const rotate = size > 0 && size + chained.bytes.length > context.segmentBytes;
    const target = rotate ? nextSegmentName(newest) : newest;
    const targetFd = rotate ? openSegment(join(projectDir, target)) : newestFd;
    try {
      await writeFully(targetFd, chained.bytes);
      await fsyncFile(targetFd);
      const ino = rotate ? fstatSync(targetFd).ino : stat.ino;
      context.tails.set(project, { segment: target, ino, size: (rotate ? 0 : size) + chained.bytes.length, head: chained.head });
    } finally {
      if (targetFd !== newestFd) closeSync(targetFd);
    }
    const appended = chained.events.slice(recovery ? 1 : 0);
    return { project, appended: appended.length, first_seq: appended[0]!.seq, last_seq: chained.head.seq, events: chained.events };
  } finally {
    if (newestFd !== lockFd) closeSync(newestFd);
  }
}
