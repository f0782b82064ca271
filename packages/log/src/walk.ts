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
    const seek = handles.length > 0 ? await seekBefore(handles[0]!, fromSeq) : START;
    // A walk that starts mid-segment has no link yet: its first line becomes one.
    const state = walkState(
      start === 0 && seek.offset === 0
        ? { seq: 0, hash: genesisHash(project), segment: null, line: 0 }
        : null,
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
        index === start ? seek : START,
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
  from: SeekPoint,
): AsyncGenerator<LoggedEvent> {
  const readAt: ReadAt = async (buffer, position) =>
    (await handle.read(buffer, 0, buffer.length, position)).bytesRead;
  let line = from.line;
  let start = from.offset;
  restart: for (;;) {
    for await (const raw of splitLines(readAt, start)) {
      if (!raw.terminated) {
        if (isNewest) {
          options.onTornTail?.({ segment: where.segment, bytes: raw.bytes.length });
          return;
        }
        const before =
          from.offset > 0 ? await rewalkPrefix(where, handle, raw.offset, state, options) : line;
        throw lineError(
          'LOG_CORRUPT',
          { ...where, line: before + 1 },
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
        // Trigger: a bad line in a walk that started mid-segment. Why: its line number was
        // counted by seq from the segment's first line, which holds only where the skipped part
        // is a whole chain. Outcome: the segment is walked again from its start up to this line,
        // counting, so the error names the real line (or an earlier break the skip passed over).
        if (from.offset > 0 && isMemError(error))
          await rewalkPrefix(where, handle, raw.offset + raw.bytes.length + 1, state, options);
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

/** Where a segment's walk starts: a line start and the number of lines before it. */
interface SeekPoint {
  offset: number;
  line: number;
}

const START: SeekPoint = { offset: 0, line: 0 };

/** Below this many bytes between the bounds, the walk reads on instead of searching further. */
const SEEK_SPAN = 64 * 1024;
/** Bytes read per probe of the search: a line start and its seq prefix are nearly always in it. */
const PROBE = 4096;

/**
 * Where the walk of the segment holding `fromSeq` starts: the start of the line before
 * `fromSeq` (or a line shortly before it), found by bisecting the file on the seq each line
 * starts with, so reading from seq N costs O(log segment + new lines), not O(segment). Trigger:
 * a catch-up reads a few new events at the end of a 64 MiB segment. Why it is safe: nothing
 * is trusted but the bytes read now — a line starts after a `\n` (JSON escapes every other),
 * its seq is its first field, and the walk from there checks seq and prev as always, hashing
 * the line before `fromSeq` for the first one's prev; the search only lands on a line whose
 * seq is below `fromSeq`. Anything unexpected (a line without the seq prefix, a segment whose
 * first seq is unreadable) stops the search where it stands, down to offset 0: the old walk.
 * Lines are numbered by seq from the segment's first line (line = seq − first + 1), which is
 * the count wherever the skipped lines are a whole chain; a walk that meets a bad line
 * counts them (rewalkPrefix). What it gives up: damage in the skipped part of the segment is
 * no longer seen by a read from a later seq, as damage in earlier segments never was (`mem
 * verify` walks every line).
 */
async function seekBefore(handle: FileHandle, fromSeq: number): Promise<SeekPoint> {
  if (fromSeq <= 2) return START;
  const { size } = await handle.stat();
  if (size <= SEEK_SPAN) return START;
  const first = await lineAt(handle, 0, size);
  if (first === null || first.seq >= fromSeq - 1) return START;
  let low = { offset: 0, seq: first.seq };
  let high = size;
  while (high - low.offset > SEEK_SPAN) {
    const middle = low.offset + Math.floor((high - low.offset) / 2);
    const found = await lineAt(handle, middle, high);
    if (found === null || found.seq >= fromSeq) {
      // No whole line starts in [middle, high), or the first one is at or after fromSeq: the
      // line before fromSeq starts before middle. (A line without the seq prefix lands here
      // too and only narrows the search towards offset 0.)
      high = middle;
      continue;
    }
    low = found;
    if (found.seq === fromSeq - 1) break;
  }
  return { offset: low.offset, line: low.seq - first.seq };
}

/**
 * The first line that starts at or after `from` (right after a `\n`, or at 0) and before
 * `limit`, with the seq it starts with; null when there is none or its seq prefix is not
 * there. Scans forward through a long line block by block.
 */
async function lineAt(
  handle: FileHandle,
  from: number,
  limit: number,
): Promise<{ offset: number; seq: number } | null> {
  let offset = from;
  if (from > 0) {
    // The byte before `from` may be the `\n` that makes `from` itself a line start.
    let position = from - 1;
    offset = -1;
    const block = Buffer.allocUnsafe(PROBE);
    while (offset === -1 && position < limit) {
      const n = (await handle.read(block, 0, Math.min(PROBE, limit - position), position))
        .bytesRead;
      if (n === 0) return null;
      const newline = block.subarray(0, n).indexOf(0x0a);
      if (newline !== -1) offset = position + newline + 1;
      position += n;
    }
  }
  if (offset === -1 || offset >= limit) return null;
  const head = Buffer.alloc(32);
  const n = (await handle.read(head, 0, head.length, offset)).bytesRead;
  const seq = peekSeq(head.subarray(0, n));
  return seq === null ? null : { offset, seq };
}

/**
 * Walks the segment from its start up to `end` with a fresh state, only to throw what is
 * wrong there with the real line number; when it finds nothing, returns the number of lines
 * before `end` (the caller then throws its own error at the next one).
 */
async function rewalkPrefix(
  where: LineLocation,
  handle: FileHandle,
  end: number,
  state: WalkState,
  options: WalkOptions,
): Promise<number> {
  const fresh = walkState(null, state.fromSeq, options.prev);
  const readAt: ReadAt = async (buffer, position) => {
    const wanted = Math.min(buffer.length, end - position);
    return wanted <= 0 ? 0 : (await handle.read(buffer, 0, wanted, position)).bytesRead;
  };
  let line = 0;
  for await (const raw of splitLines(readAt, 0)) {
    if (!raw.terminated) break;
    line += 1;
    resolveLine(raw.bytes, { ...where, line }, fresh);
  }
  return line;
}
