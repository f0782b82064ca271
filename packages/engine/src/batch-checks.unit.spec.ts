import { readFileSync } from 'node:fs';
import { genesisHash, hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { checkBatch, checkStart } from './batch-checks.js';

const P = 'demo';
const sample = new URL('../../../test/fixtures/extraction-runs.jsonl', import.meta.url);
const payloads = readFileSync(sample, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const events = chainEvents(P, payloads).map(({ event, hash }) => ({ event, hash }));

function thrownBy(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (error) {
    return hasErrorCode(error, 'PROJECTION_FAILED')
      ? 'PROJECTION_FAILED'
      : hasErrorCode(error, 'CHAIN_BROKEN')
        ? 'CHAIN_BROKEN'
        : 'other';
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

  it('refuses a first event that does not chain from genesis, and an unknown event type', () => {
    const forged = { ...events[0]!, event: { ...events[0]!.event, prev: events[3]!.hash } };
    expect(codeOf(() => checkBatch(P, [forged]))).toBe('CHAIN_BROKEN');
    const bogus = {
      ...events[4]!,
      event: { ...events[4]!.event, type: 'telepathy' },
    } as unknown as (typeof events)[number];
    expect(
      hasErrorCode(
        thrownBy(() => checkBatch(P, [events[3]!, bogus])),
        'UNKNOWN_EVENT_TYPE',
      ),
    ).toBe(true);
  });
});

describe('checkStart', () => {
  it('expects a batch from seq 1 when nothing was applied', () => {
    expect(codeOf(() => checkStart(P, null, null))).toBeUndefined();
    expect(codeOf(() => checkStart(P, null, { seq: 1, head: events[0]!.hash }))).toBe(
      'PROJECTION_FAILED',
    );
  });

  it('expects the batch to continue the stored position, seq and head', () => {
    const position = { seq: 3, head: events[2]!.hash };
    expect(
      codeOf(() => checkStart(P, position, { seq: 3, head: events[2]!.hash })),
    ).toBeUndefined();
    expect(codeOf(() => checkStart(P, position, { seq: 2, head: events[1]!.hash }))).toBe(
      'PROJECTION_FAILED',
    );
    expect(codeOf(() => checkStart(P, position, null))).toBe('PROJECTION_FAILED');
    expect(codeOf(() => checkStart(P, { seq: 3, head: events[1]!.hash }, position))).toBe(
      'PROJECTION_FAILED',
    );
  });
});
