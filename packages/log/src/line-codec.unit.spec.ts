import { hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { decodeLine, peekSeq } from './line-codec.js';

const [first, second] = chainEvents('demo', [
  { type: 'tombstone', target: 'a'.repeat(64), reason: 'one' },
  { type: 'tombstone', target: 'a'.repeat(64), reason: 'two' },
]);
const at = { project: 'demo', segment: '000001.jsonl', file: 'log/demo/000001.jsonl', line: 7 };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('peekSeq', () => {
  it('reads the seq from the first bytes of a line', () => {
    expect(peekSeq(Buffer.from(second!.line))).toBe(2);
  });

  it('gives up (null) on anything not shaped like a log line', () => {
    expect(peekSeq(Buffer.from('{"ts":1}'))).toBeNull();
    expect(peekSeq(Buffer.from(second!.line.replace('"seq":2', '"seq":02')))).toBeNull();
    expect(peekSeq(Buffer.from(''))).toBeNull();
  });
});

describe('decodeLine', () => {
  it('parses a valid line of the project', () => {
    expect(decodeLine(Buffer.from(first!.line), at)).toEqual(first!.event);
  });

  it('names file and line in every refusal', () => {
    const cases: [string, string | Buffer][] = [
      ['LOG_CORRUPT', '{"seq":1,'],
      ['LOG_CORRUPT', Buffer.from([0x7b, 0xff, 0x7d])],
      ['LOG_CORRUPT', `\ufeff${first!.line}`],
      ['UNKNOWN_EVENT_TYPE', first!.line.replace('"tombstone"', '"mystery"')],
      ['INVALID_EVENT', first!.line.replace('"seq":1', '"seq":0')],
    ];
    for (const [code, line] of cases) {
      try {
        decodeLine(Buffer.from(line), at);
        throw new Error('expected a throw');
      } catch (error) {
        expect(hasErrorCode(error, code as 'LOG_CORRUPT')).toBe(true);
        expect((error as Error).message).toContain('log/demo/000001.jsonl');
        expect((error as Error).message).toContain('7');
        expect((error as { details: { line: number; segment: string } }).details).toMatchObject({
          line: 7,
          segment: '000001.jsonl',
        });
      }
    }
  });

  it('refuses an event of another project', () => {
    expect(codeOf(() => decodeLine(Buffer.from(first!.line), { ...at, project: 'other' }))).toBe(
      'LOG_CORRUPT',
    );
  });
});
