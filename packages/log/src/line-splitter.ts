/** One line as read: its bytes (without `\n`) and where it starts. */
export interface RawLine {
  bytes: Buffer;
  offset: number;
  /** False only for a trailing fragment with no `\n` after it. */
  terminated: boolean;
}

/** Reads up to `buffer.length` bytes at `position`; 0 at end of file. */
export type ReadAt = (buffer: Buffer, position: number) => Promise<number>;

/** Default read size: big enough to amortise a read, small enough that memory stays flat. */
export const READ_BLOCK = 64 * 1024;

/**
 * Splits a file into lines, reading fixed-size blocks from `start`. Bounded memory: it holds the
 * current block plus, only while a line is being assembled across blocks, that line's pieces.
 * Nothing is read ahead of what the consumer pulls.
 */
export async function* splitLines(
  readAt: ReadAt,
  start = 0,
  blockSize = READ_BLOCK,
): AsyncGenerator<RawLine> {
  let position = start;
  let lineStart = start;
  let pending: Buffer[] = [];
  for (;;) {
    // A fresh block per read: yielded lines are views into it, so it must not be overwritten.
    const block = Buffer.allocUnsafe(blockSize);
    const n = await readAt(block, position);
    if (n === 0) break;
    const filled = block.subarray(0, n);
    let from = 0;
    for (let newline = filled.indexOf(0x0a); newline !== -1; newline = filled.indexOf(0x0a, from)) {
      const piece = filled.subarray(from, newline);
      const bytes = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      yield { bytes, offset: lineStart, terminated: true };
      from = newline + 1;
      lineStart = position + from;
    }
    if (from < n) pending.push(filled.subarray(from));
    position += n;
  }
  if (pending.length > 0)
    yield { bytes: Buffer.concat(pending), offset: lineStart, terminated: false };
}
