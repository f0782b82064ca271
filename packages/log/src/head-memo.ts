import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainLink } from './batch.js';
import { readChainHead } from './chain-head.js';
import { readRange, scanSegmentEnd } from './segment-scan.js';

/** Lines longer than this are not remembered: comparing them costs what reading them does. */
const MAX_REMEMBERED_LINE = 64 * 1024;

/**
 * A chain head this process read or wrote, with the bytes it is the head of: the newest
 * segment's last line, the `\n` before it included (none when the line starts the segment).
 */
export interface HeadMemo {
  segment: string;
  /** The segment's size when the line was its last one: the line ends there. */
  size: number;
  /** Where `bytes` start in the segment. */
  from: number;
  bytes: Buffer;
  head: ChainLink;
}

/**
 * The chain head (readChainHead), from what this process remembers when the newest segment still
 * ends in the very bytes it was read from. Trigger: an add_items(100) read the head four times
 * (the store's freshness check, the tail check, the catch-up after the append), each a scan of
 * the segment's end, a zod parse and a sha256 of the same line (stop 34: 0.34 ms CPU each at
 * 100 k events). Why it is safe: the head is a function of the last complete line's bytes and
 * the project alone (its seq is in the line, its hash is the line's sha256), and the line is
 * the last complete one exactly when the segment ends with it and the byte before it is `\n`
 * or the segment's start; so equal bytes at the same place give the same head, however the file
 * got there (another writer, a purge, an edit of the line in place: all change the bytes or the
 * size, and then the line is read as before). Outcome: one read of the line's bytes and a
 * compare; no parse, no hash.
 */
export function rememberedHead(
  memos: Map<string, HeadMemo>,
  projectDir: string,
  project: string,
  segments: readonly string[],
): ChainLink {
  const newest = segments.at(-1);
  if (newest === undefined) {
    memos.delete(project);
    return readChainHead(projectDir, project, segments);
  }
  const fd = openSync(join(projectDir, newest), 'r');
  try {
    const size = fstatSync(fd).size;
    const memo = memos.get(project);
    if (
      memo?.segment === newest &&
      memo.size === size &&
      readRange(fd, memo.from, size).equals(memo.bytes)
    )
      return memo.head;
    const end = scanSegmentEnd(fd, size);
    const head = readChainHead(projectDir, project, segments, { segment: newest, fd, end });
    const from = Math.max(0, end.lineStart - 1);
    if (end.lineStart !== -1 && end.end === size && size - from <= MAX_REMEMBERED_LINE)
      memos.set(project, { segment: newest, size, from, bytes: readRange(fd, from, size), head });
    else memos.delete(project);
    return head;
  } finally {
    closeSync(fd);
  }
}

/**
 * Remembers the head a group commit just wrote: `bytes` (whole lines) were written at `at` in
 * `segment`, whose complete lines ended there (so a byte before `at` is a `\n`). The next head
 * read still compares them with the file.
 */
export function rememberWritten(
  memos: Map<string, HeadMemo>,
  project: string,
  segment: string,
  at: number,
  bytes: Uint8Array,
  head: ChainLink,
): void {
  // The last line starts after the batch's second-to-last `\n`, or at `at`.
  const lastStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  const size = at + bytes.length;
  let kept: Buffer;
  if (lastStart > 0) kept = Buffer.from(bytes.subarray(lastStart - 1));
  else if (at > 0) kept = Buffer.concat([NEWLINE, bytes]);
  else kept = Buffer.from(bytes);
  if (kept.length > MAX_REMEMBERED_LINE) memos.delete(project);
  else memos.set(project, { segment, size, from: size - kept.length, bytes: kept, head });
}

const NEWLINE = Buffer.from('\n');
