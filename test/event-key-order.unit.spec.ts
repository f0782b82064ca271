import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentVersion, serializeEvent, type LogEvent, type Payload } from '@mem/core';
import { projectLogs } from './support/arbitraries.js';

/*
 * serializeEvent writes an event built in catalogue order as JSON.stringify makes it (the fast
 * path, checked by a position per key) and rebuilds any other in that order (the slow path).
 * A fast path that took an out-of-order event would write a line no rebuild makes again, so
 * the same events with their keys shuffled, nested writers and array entries included, must
 * come out byte for byte as the canonical ones.
 */

/** Events as the log chains them: envelope head, type, v, writer, payload, prev. */
function chained(payloads: readonly Payload[], project: string): LogEvent[] {
  return payloads.map((payload, index) => {
    const { type, ...fields } = payload;
    const version = currentVersion(type);
    return {
      seq: index + 1,
      ts: '2026-08-17T10:00:00.000Z',
      project,
      type,
      ...(version > 1 ? { v: version } : {}),
      writer: { kind: 'cli', principal: 'alice' },
      ...fields,
      prev: 'a'.repeat(64),
    } as LogEvent;
  });
}

/** A copy of `value` with the keys of every object in it reordered by `rank`. */
function shuffled(value: unknown, rank: (key: string) => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffled(item, rank));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  return Object.fromEntries(
    keys.map((key) => [key, shuffled((value as Record<string, unknown>)[key], rank)]),
  );
}

describe('serializeEvent: the canonical line whatever the key order', () => {
  it('writes shuffled events byte for byte as the events the log builds', () => {
    fc.assert(
      fc.property(projectLogs(1), fc.func(fc.integer()), (logs, rank) => {
        for (const [project, payloads] of Object.entries(logs))
          for (const event of chained(payloads, project)) {
            const line = serializeEvent(event);
            expect(serializeEvent(shuffled(event, (key) => rank(key)) as LogEvent)).toBe(line);
          }
      }),
      { numRuns: 60 },
    );
  });

  it('puts the envelope first, then type, v, writer, payload and prev', () => {
    const [event] = chained(
      [{ type: 'tombstone', target: 'b'.repeat(64), reason: 'wrong' }],
      'demo',
    );
    const reversed = shuffled(event, (key) => -Object.keys(event!).indexOf(key)) as LogEvent;
    expect(Object.keys(JSON.parse(serializeEvent(reversed)) as object)).toEqual([
      'seq',
      'ts',
      'project',
      'type',
      'writer',
      'target',
      'reason',
      'prev',
    ]);
    expect(serializeEvent(reversed)).toBe(JSON.stringify(event));
  });
});
