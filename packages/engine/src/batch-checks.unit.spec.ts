import { readFileSync } from 'node:fs';
import { genesisHash, hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { checkBatch, checkStart } from './batch-checks.js';

const P = 'demo';
const sample = new URL('../../../test/fixtures/extraction-runs.jsonl', import.meta.url);
const payloads = readFileSync(sample, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
const events = chainEvents(P, payloads).map(({ event, hash }) => ({ event, hash }));

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (error) {
    return hasErrorCode(error, 'PROJECTION_FAILED') ? 'PROJECTION_FAILED' : hasErrorCode(error, 'CHAIN_BROKEN') ? 'CHAIN_BROKEN' : 'other';
  }
  return undefined;
}

describe('checkBatch', () => {
  it('accepts a contiguous stretch of one chain', () => {
    expect(codeOf(() => checkBatch(P, events.slice(3, 9)))).toBeUndefined();
  });

  it('refuses a gap, another project, and a prev that does not chain', () => {
    expect(codeOf(() => checkBatch(P, [events[0]!, events[2]!]))).toBe('PROJECTION_FAILED');
    expect(codeOf(() => checkBatch('other', events.slice(0, 2)))).toBe('PROJECTION_FAILED');
    const forged = { ...events[1]!, event: { ...events[1]!.event, prev: genesisHash(P) } };
    expect(codeOf(() => checkBatch(P, [events[0]!, forged]))).toBe('CHAIN_BROKEN');
  });
});

describe('checkStart', () => {
  it('expects seq 1 from genesis when nothing was applied', () => {
    expect(codeOf(() => checkStart(P, null, events[0]!))).toBeUndefined();
    expect(codeOf(() => checkStart(P, null, events[1]!))).toBe('PROJECTION_FAILED');
    expect(codeOf(() => checkStart('other', null, { ...events[0]!, event: { ...events[0]!.event, project: 'other' } }))).toBe('PROJECTION_FAILED');
  });

  it('expects the next seq, chained from the stored head', () => {
    const position = { seq: 3, head: events[2]!.hash };
    expect(codeOf(() => checkStart(P, position, events[3]!))).toBeUndefined();
    expect(codeOf(() => checkStart(P, position, events[2]!))).toBe('PROJECTION_FAILED');
    expect(codeOf(() => checkStart(P, { seq: 3, head: events[1]!.hash }, events[3]!))).toBe('PROJECTION_FAILED');
  });
});
