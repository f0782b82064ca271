import { describe, expect, it } from 'vitest';
import { LineBuffer } from './line-buffer.js';

describe('LineBuffer', () => {
  it('holds each line as UTF-8 followed by a newline, growing past its capacity', () => {
    const lines = ['{"a":1}', 'Ünïcode ✓ 🧪 中文', 'x'.repeat(300), '', '"quoted\\n"'];
    const out = new LineBuffer(8);
    const pushed = lines.map((line) => Buffer.from(out.push(line)));
    expect(pushed).toEqual(lines.map((line) => Buffer.from(line, 'utf8')));
    expect(out.bytes().toString('utf8')).toBe(lines.map((line) => `${line}\n`).join(''));
  });

  it('gives back the bytes of the line just pushed, however many bytes a character takes', () => {
    const out = new LineBuffer(1);
    for (const line of ['🧪'.repeat(40), '€'.repeat(50), 'a']) {
      const bytes = out.push(line);
      expect(bytes.toString('utf8')).toBe(line);
      expect(bytes.length).toBe(Buffer.byteLength(line, 'utf8'));
    }
    expect(out.bytes().length).toBe(160 + 150 + 1 + 3);
  });
});
