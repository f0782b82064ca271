import { describe, expect, it } from 'vitest';
import { splitLines, type ReadAt } from './line-splitter.js';

/** An in-memory file that records every read, so tests can see how much was read and when. */
function memoryFile(content: Buffer) {
  const reads: { position: number; length: number }[] = [];
  const readAt: ReadAt = async (buffer, position) => {
    reads.push({ position, length: buffer.length });
    const n = Math.max(0, Math.min(buffer.length, content.length - position));
    content.copy(buffer, 0, position, position + n);
    return n;
  };
  return { readAt, reads };
}

describe('splitLines', () => {
  it('assembles lines across block boundaries and reports offsets', async () => {
    const content = Buffer.from('alpha\nbravo-is-long\n\ncharlie\n');
    const { readAt } = memoryFile(content);
    const lines = [];
    for await (const line of splitLines(readAt, 0, 4))
      lines.push({ text: line.bytes.toString(), offset: line.offset, terminated: line.terminated });
    expect(lines).toEqual([
      { text: 'alpha', offset: 0, terminated: true },
      { text: 'bravo-is-long', offset: 6, terminated: true },
      { text: '', offset: 20, terminated: true },
      { text: 'charlie', offset: 21, terminated: true },
    ]);
  });

  it('hands back a trailing fragment as unterminated', async () => {
    const { readAt } = memoryFile(Buffer.from('one\ntwo\nthr'));
    const lines = [];
    for await (const line of splitLines(readAt, 0, 3))
      lines.push([line.bytes.toString(), line.terminated]);
    expect(lines).toEqual([
      ['one', true],
      ['two', true],
      ['thr', false],
    ]);
  });

  it('reads lazily in fixed-size blocks: memory does not grow with the line count', async () => {
    const lineCount = 20_000;
    const content = Buffer.from(
      Array.from({ length: lineCount }, (_, n) => `{"line":${n}}\n`).join(''),
    );
    const { readAt, reads } = memoryFile(content);
    const blockSize = 1024;
    const iterator = splitLines(readAt, 0, blockSize)[Symbol.asyncIterator]();
    await iterator.next();
    // One line pulled, one block read: nothing is read ahead of the consumer.
    expect(reads).toHaveLength(1);
    let count = 1;
    while (!(await iterator.next()).done) count += 1;
    expect(count).toBe(lineCount);
    expect(Math.max(...reads.map((r) => r.length))).toBe(blockSize);
    expect(reads.length).toBe(Math.ceil(content.length / blockSize) + 1);
  });
});
