import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLines, type LineSplitOptions, type TextLine } from './lines.js';
import { StatsCollector } from './stats.js';

const FILES: LineSplitOptions = { maxLineBytes: 1024, finalLine: 'truncate' };

async function split(
  blocks: Uint8Array[],
  options = FILES,
): Promise<{ lines: TextLine[]; stats: StatsCollector }> {
  const stats = new StatsCollector();
  const lines: TextLine[] = [];
  for await (const line of splitLines(blocks, 'f.jsonl', stats, options)) lines.push(line);
  return { lines, stats };
}

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('splitLines', () => {
  it('numbers lines from 1, strips \\r and a leading BOM', async () => {
    const { lines, stats } = await split([bytes('\uFEFF{"a":1}\r\n\n{"b":2}\n')]);
    expect(lines).toEqual([
      { line: 1, text: '{"a":1}', terminated: true },
      { line: 2, text: '', terminated: true },
      { line: 3, text: '{"b":2}', terminated: true },
    ]);
    expect(stats.snapshot()).toMatchObject({ lines: 3, bytes: 21, truncatedTails: { count: 0 } });
  });

  it('holds back an unterminated last line as a truncated tail', async () => {
    const { lines, stats } = await split([bytes('{"a":1}\n{"b":')]);
    expect(lines.map((l) => l.line)).toEqual([1]);
    expect(stats.snapshot().truncatedTails).toEqual({
      count: 1,
      samples: [{ file: 'f.jsonl', line: 2, bytes: 5 }],
    });
  });

  it('yields the unterminated last line, marked, when told to', async () => {
    const { lines } = await split([bytes('{"a":1}\n{"b":2}')], {
      maxLineBytes: 1024,
      finalLine: 'yield',
    });
    expect(lines[1]).toEqual({ line: 2, text: '{"b":2}', terminated: false });
  });

  it('skips a line over the byte cap, across blocks, and keeps counting lines', async () => {
    const long = 'x'.repeat(300);
    const { lines, stats } = await split(
      [bytes(`a\n${long}`), bytes(long), bytes(`${long}\nb\n`)],
      { maxLineBytes: 500, finalLine: 'truncate' },
    );
    expect(lines).toEqual([
      { line: 1, text: 'a', terminated: true },
      { line: 3, text: 'b', terminated: true },
    ]);
    expect(stats.snapshot().skipped).toEqual({ 'oversize-line': 1 });
  });

  it('an empty input has no lines', async () => {
    const { lines, stats } = await split([]);
    expect(lines).toEqual([]);
    expect(stats.snapshot()).toMatchObject({ lines: 0, bytes: 0 });
  });

  it('gives the same lines however the bytes are cut into blocks (multi-byte characters included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (rows, cuts) => {
          const all = bytes(rows.join('\n'));
          const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
          const blocks: Uint8Array[] = [];
          let from = 0;
          for (const p of [...points, all.length]) {
            blocks.push(all.subarray(from, p));
            from = p;
          }
          const whole = await split([all], { maxLineBytes: 1 << 20, finalLine: 'yield' });
          const pieces = await split(blocks, { maxLineBytes: 1 << 20, finalLine: 'yield' });
          expect(pieces.lines).toEqual(whole.lines);
        },
      ),
      { numRuns: 300 },
    );
  });
});
