import { describe, expect, it } from 'vitest';
import type { IngestRecord } from './accepted-records.js';
import { newRecords, occurrenceKeys } from './record-identity.js';

const yes: IngestRecord = { role: 'user', text: 'yes', timestamp: null, source: 'agent:test' };
const fix: IngestRecord = {
  role: 'assistant',
  text: 'Fixed the flaky retry by awaiting the close.',
  timestamp: null,
  source: 'agent:test',
};

describe('record identity across jobs', () => {
  it('equal records without ids are told apart by their occurrence', () => {
    const keys = occurrenceKeys([yes, fix, yes]);
    expect(keys[0]).not.toBe(keys[2]);
    expect(keys[0]!.replace(/#1$/, '#2')).toBe(keys[2]);
  });

  it('a later job keeps the equal records beyond what an earlier job held', () => {
    const known = new Set(occurrenceKeys([yes, fix]));
    expect(newRecords([yes, fix, yes], known)).toEqual({ fresh: [yes], skipped: 2 });
    expect(newRecords([fix, yes], known)).toEqual({ fresh: [], skipped: 2 });
  });

  it('position is not identity: the same records on other lines are known', () => {
    const known = new Set(occurrenceKeys([{ ...fix, line: 3 }]));
    expect(newRecords([{ ...fix, line: 40 }], known).skipped).toBe(1);
  });
});
