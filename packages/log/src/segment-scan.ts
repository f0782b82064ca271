import { readSync } from 'node:fs';
import { createHash } from 'node:crypto';

const BLOCK = 64 * 1024;
const NEWLINE = 0x0a;

/** Where a segment's complete lines end, found by reading backwards from its end. */
export interface SegmentEnd {
  size: number;
  /** Offset just after the last `\n` (0 when there is none): bytes past it are a torn or in-flight line. */
  end: number;
  /** Offset where the last complete line starts, or -1 when the segment has no complete line. */
  lineStart: number;
}

/** Reads [position, position + length) into `buffer`, stopping early only at end of file. */
function readAt(fd: number, buffer: Buffer, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** The first block lastNewlineBefore reads: most lines are a few hundred bytes. */
const FIRST_BLOCK = 4 * 1024;

/**
 * Offset of the last `\n` in [0, before), or -1. Lines may be hundreds of KB, so it walks back
 * block by block, from 4 KiB doubling to 64 KiB. Trigger: every head read (four per add_items)
 * read two 64 KiB blocks to find one ~270-byte line (stop 34, strace). Outcome: one 4 KiB read
 * each for the common line; a long line costs a few more reads.
 */
function lastNewlineBefore(fd: number, before: number): number {
  let block = Buffer.allocUnsafe(Math.min(FIRST_BLOCK, Math.max(before, 1)));
  let high = before;
  while (high > 0) {
    const low = Math.max(0, high - block.length);
    const n = readAt(fd, block, high - low, low);
    const index = block.subarray(0, n).lastIndexOf(NEWLINE);
    if (index !== -1) return low + index;
    high = low;
    if (block.length < BLOCK && high > block.length)
      block = Buffer.allocUnsafe(Math.min(BLOCK, block.length * 2, high));
  }
  return -1;
}

/** Finds the last complete line of a segment of `size` bytes without reading the rest of it. */
export function scanSegmentEnd(fd: number, size: number): SegmentEnd {
  const last = lastNewlineBefore(fd, size);
  if (last === -1) return { size, end: 0, lineStart: -1 };
  return { size, end: last + 1, lineStart: lastNewlineBefore(fd, last) + 1 };
}

/** The bytes of [start, end). Used for one line at a time. */
export function readRange(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.allocUnsafe(end - start);
  const n = readAt(fd, buffer, end - start, start);
  return buffer.subarray(0, n);
}

/** sha256 hex of [start, end), streamed in blocks. */
export function sha256Range(fd: number, start: number, end: number): string {
  const hash = createHash('sha256');
  const block = Buffer.allocUnsafe(BLOCK);
  for (let position = start; position < end;) {
    const n = readAt(fd, block, Math.min(BLOCK, end - position), position);
    if (n === 0) break;
    hash.update(block.subarray(0, n));
    position += n;
  }
  return hash.digest('hex');
}

/** Number of `\n` in [0, end): the 1-based number of the line that ends at `end`. Only for error messages. */
export function countNewlines(fd: number, end: number): number {
  const block = Buffer.allocUnsafe(BLOCK);
  let count = 0;
  for (let position = 0; position < end;) {
    const n = readAt(fd, block, Math.min(BLOCK, end - position), position);
    if (n === 0) break;
    for (
      let index = block.indexOf(NEWLINE);
      index !== -1 && index < n;
      index = block.indexOf(NEWLINE, index + 1)
    )
      count += 1;
    position += n;
  }
  return count;
}
