import { open, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { MemError, assertProjectName, genesisHash, isMemError } from '@mem/core';
import { resolveLine, unacceptedBreak, walkState, type WalkState } from './chain-walk.js';
import { lineError, peekSeq, type LineLocation } from './line-codec.js';
import { splitLines, type RawLine, type ReadAt } from './line-splitter.js';
import { PURGE_MANIFEST, settlePurge } from './purge-settle.js';
import { checkNumbering, listSegments } from './segment-list.js';
import { FIRST_SEGMENT } from './segment-name.js';
import { withSegmentLock } from './segment-lock.js';
import type { LoggedEvent, TornTail } from './types.js';

/** How to walk a project's log. */
export interface WalkOptions {
  /** First seq to yield (default 1). */
  fromSeq?: number;
  /** The `prev` the first yielded event must carry (a caller's stored chain head). */
  prev?: string;
  /** Called when the newest segment ends in a line without `\n` (torn or still being written). */
  onTornTail?: (tail: TornTail) => void;
}

/**
 * Streams a project's events in seq order, validating every yielded line and the whole chain
 * it walks. Throws a MemError naming project, segment, file and line at the first problem.
 */
export async function* walkLog(
  dir: string,
  projectName: string,
  options: WalkOptions = {},
): AsyncGenerator<LoggedEvent> {
  const project = assertProjectName(projectName);
  const projectDir = join(dir, project);
  const fromSeq = Math.max(1, Math.floor(options.fromSeq ?? 1));
  const { segments, start, handles } = await openSnapshot(project, projectDir, fromSeq);
  try {
    const state = walkState(
      start === 0 ? { seq: 0, hash: genesisHash(project), segment: null, line: 0 } : null,
      fromSeq,
      options.prev,
    );
    for (let index = start; index < segments.length; index += 1) {
      const segment = segments[index]!;
      yield* walkSegment(
        { project, segment, file: join(projectDir, segment), line: 0 },
        handles[index - start]!,
        index === segments.length - 1,
        state,
        options,
      );
    }
    const unaccepted = unacceptedBreak(state);
    if (unaccepted)
      throw new MemError(
        unaccepted.error.code,
        unaccepted.error.message,
        { ...unaccepted.error.details, walked: { seq: unaccepted.seq, hash: unaccepted.new } },
        { cause: unaccepted.error },
      );
  } finally {
    await Promise.all(handles.map((handle) => handle.close()));
  }
}

/**
 * Opens every segment the walk reads before reading any, so the walk sees one log: before a
 * purge or after it, never old and new segments mixed. Trigger: a purge renames its rewritten
 * segments one by one. Why this suffices: once the manifest is seen absent, every rename of a
 * purge that straddled the opens is done, so if each open file is still the one at its path,
 * no segment moved under us. Outcome: with a manifest, wait for the purge's lock (a live purge
 * finishes; a crashed one is settled, purge-settle.ts) and open again; with a moved segment,
 * open again.
 */
async function openSnapshot(
  project: string,
  projectDir: string,
  fromSeq: number,
): Promise<{ segments: string[]; start: number; handles: FileHandle[] }> {
  for (;;) {
    const segments = await listSegments(projectDir);
    checkNumbering(project, projectDir, segments);
    const start = await startSegment(projectDir, segments, fromSeq);
    const handles: FileHandle[] = [];
    try {
      for (const segment of segments.slice(start))
        handles.push(await open(join(projectDir, segment), 'r'));
      if (await exists(join(projectDir, PURGE_MANIFEST))) {
        await withSegmentLock(join(projectDir, FIRST_SEGMENT), async () => settlePurge(projectDir));
      } else if (await unmoved(projectDir, segments.slice(start), handles)) {
        return { segments, start, handles };
      }
    } catch (error) {
      await Promise.all(handles.map((handle) => handle.close()));
      throw error;
    }
    await Promise.all(handles.map((handle) => handle.close()));
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}

/** True when each open handle is still the file at its segment's path. */
async function unmoved(
  projectDir: string,
  segments: readonly string[],
  handles: readonly FileHandle[],
): Promise<boolean> {
  for (let index = 0; index < segments.length; index += 1) {
    const [open, atPath] = await Promise.all([
      handles[index]!.stat(),
      stat(join(projectDir, segments[index]!)),
    ]);
    if (open.ino !== atPath.ino || open.dev !== atPath.dev) return false;
  }
  return true;
}

/**
 * The segment holding `fromSeq`, found from each segment's first seq (a 32-byte read), so
 * earlier segments are never parsed. Without a readable first seq it stops early and lets
 * the full walk report what is wrong.
 */
async function startSegment(
  projectDir: string,
  segments: readonly string[],
  fromSeq: number,
): Promise<number> {
  if (fromSeq <= 1) return 0;
  let start = 0;
  for (let index = 1; index < segments.length; index += 1) {
    const first = await firstSeq(join(projectDir, segments[index]!));
    if (first === null || first > fromSeq) break;
    start = index;
  }
  return start;
}

async function firstSeq(file: string): Promise<number | null> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(32), 0, 32, 0);
    return peekSeq(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

async function* walkSegment(
  where: LineLocation,
  handle: FileHandle,
  isNewest: boolean,
  state: WalkState,
  options: WalkOptions,
): AsyncGenerator<LoggedEvent> {
  const readAt: ReadAt = async (buffer, position) =>
    (await handle.read(buffer, 0, buffer.length, position)).bytesRead;
  let line = 0;
  let start = 0;
  restart: for (;;) {
    for await (const raw of splitLines(readAt, start)) {
      if (!raw.terminated) {
        if (isNewest) {
          options.onTornTail?.({ segment: where.segment, bytes: raw.bytes.length });
          return;
        }
        throw lineError(
          'LOG_CORRUPT',
          { ...where, line: line + 1 },
          'the last line of a segment that is not the newest has no "\\n"',
        );
      }
      line += 1;
      let logged: LoggedEvent | null;
      try {
        logged = resolveLine(raw.bytes, { ...where, line }, state);
      } catch (error) {
        // Trigger: a bad line in the newest segment. Why: a writer may have truncated a torn
        // tail and appended while we were reading it, splicing old and new bytes in our buffer.
        // Outcome: if the file no longer holds what we read, read again from that line's start.
        if (isNewest && isMemError(error) && (await changedUnderUs(handle, raw))) {
          line -= 1;
          start = raw.offset;
          continue restart;
        }
        throw error;
      }
      if (logged) yield logged;
    }
    return;
  }
}

async function changedUnderUs(handle: FileHandle, raw: RawLine): Promise<boolean> {
  const length = raw.bytes.length + 1;
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, raw.offset);
  return (
    bytesRead !== length ||
    !buffer.subarray(0, raw.bytes.length).equals(raw.bytes) ||
    buffer[raw.bytes.length] !== 0x0a
  );
}
