import { describe, expect, it } from 'vitest';
import {
  FIRST_SEGMENT,
  nextSegmentName,
  segmentIndex,
  segmentName,
  sortSegments,
} from './segment-name.js';

describe('segment names', () => {
  it('pads to six digits and round-trips', () => {
    expect(segmentName(1)).toBe(FIRST_SEGMENT);
    expect(segmentName(42)).toBe('000042.jsonl');
    expect(segmentIndex('000042.jsonl')).toBe(42);
    expect(nextSegmentName('000009.jsonl')).toBe('000010.jsonl');
  });

  it('rejects anything that is not a segment', () => {
    for (const name of [
      '000000.jsonl',
      '1.jsonl',
      '000001.jsonl.tmp',
      'notes.md',
      '0000001.jsonl',
    ]) {
      expect(segmentIndex(name)).toBeNull();
    }
  });

  it('sorts segments numerically and drops other files', () => {
    expect(
      sortSegments(['000010.jsonl', '.DS_Store', '000002.jsonl', '000001.jsonl', 'x.jsonl']),
    ).toEqual(['000001.jsonl', '000002.jsonl', '000010.jsonl']);
  });
});
