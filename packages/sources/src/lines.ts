import { open } from 'node:fs/promises';
import { MemError } from '@mem/core';
import type { StatsCollector } from './stats.js';

/** One line of a transcript, decoded, without its `\n` (or `\r\n`). */
export interface TextLine {
  /** 1-based line number in the file. */
  line: number;
  text: string;
  /** False only for a final line with no `\n` after it (yielded only when the caller asked to parse it). */
  terminated: boolean;
}

export interface LineSplitOptions {
  /** A line longer than this is skipped and counted as `oversize-line`, so one runaway line cannot exhaust memory. */
  maxLineBytes: number;
  /**
   * What to do with a final line that has no `\n`: `truncate` counts it as a truncated tail (a live
   * file is still being appended to; read it next time), `yield` hands it on marked unterminated
   * (an in-memory transcript posted whole).
   */
  finalLine: 'truncate' | 'yield';
}

/** Read size: large enough to amortise syscalls, small enough that memory stays flat. */
export const READ_BLOCK = 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Splits a stream of byte blocks into lines. Memory is bounded by one block plus the line being
 * assembled, itself capped at `maxLineBytes`. Blocks may be reused by the producer once the next
 * one is requested: partial lines are copied.
 */
export async function* splitLines(
  blocks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  file: string,
  stats: StatsCollector,
  options: LineSplitOptions,
): AsyncGenerator<TextLine> {
  let lineNo = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflow = false;
  for await (const raw of blocks) {
    const block = Buffer.isBuffer(raw)
      ? raw
      : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    stats.bytes += block.length;
    let from = 0;
    for (let nl = block.indexOf(NEWLINE, from); nl !== -1; nl = block.indexOf(NEWLINE, from)) {
      lineNo += 1;
      stats.lines += 1;
      const pieceBytes = nl - from;
      if (overflow || pendingBytes + pieceBytes > options.maxLineBytes) {
        stats.skip('oversize-line');
      } else {
        const piece = block.subarray(from, nl);
        const bytes =
          pending.length === 0
            ? piece
            : Buffer.concat([...pending, piece], pendingBytes + pieceBytes);
        yield { line: lineNo, text: decodeLine(bytes, lineNo), terminated: true };
      }
      pending = [];
      pendingBytes = 0;
      overflow = false;
      from = nl + 1;
    }
    if (from < block.length && !overflow) {
      const restBytes = block.length - from;
      if (pendingBytes + restBytes > options.maxLineBytes) {
        // Trigger: a line longer than the cap. Why: holding it would make memory follow the input.
        // Outcome: drop what we hold and discard bytes until the next newline.
        overflow = true;
        pending = [];
        pendingBytes = 0;
      } else {
        pending.push(Buffer.from(block.subarray(from)));
        pendingBytes += restBytes;
      }
    }
  }
  if (overflow) {
    stats.truncatedTail({ file, line: lineNo + 1 }, pendingBytes);
    return;
  }
  if (pendingBytes === 0) return;
  const tail = Buffer.concat(pending, pendingBytes);
  const text = decodeLine(tail, lineNo + 1);
  if (text.trim() === '') return;
  if (options.finalLine === 'yield') yield { line: lineNo + 1, text, terminated: false };
  else stats.truncatedTail({ file, line: lineNo + 1 }, pendingBytes);
}

/** Byte blocks of a file, read sequentially; I/O failures become `IO_FAILED` / `NOT_FOUND`. */
export async function* fileBlocks(
  path: string,
  blockSize = READ_BLOCK,
): AsyncGenerator<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    throw ioError(path, cause);
  }
  try {
    const buffer = Buffer.allocUnsafe(blockSize);
    for (;;) {
      let n: number;
      try {
        ({ bytesRead: n } = await handle.read(buffer, 0, blockSize, null));
      } catch (cause) {
        throw ioError(path, cause);
      }
      if (n === 0) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function ioError(path: string, cause: unknown): MemError {
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ENOENT')
    return new MemError(
      'NOT_FOUND',
      `transcript file not found: ${path}`,
      { file: path },
      { cause },
    );
  return new MemError(
    'IO_FAILED',
    `cannot read transcript file ${path}: ${String(code ?? cause)}`,
    { file: path },
    { cause },
  );
}

function decodeLine(bytes: Buffer, lineNo: number): string {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0d) end -= 1;
  let start = 0;
  // A UTF-8 byte-order mark is legal at the start of a file and nowhere else.
  if (lineNo === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    start = 3;
  return bytes.toString('utf8', start, end);
}
