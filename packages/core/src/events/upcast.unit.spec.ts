import { describe, expect, it } from 'vitest';
import { hasErrorCode, isMemError } from '../errors.js';
import { genesisHash } from '../identity.js';
import { parseEvent } from './parse.js';
import { renameField, upcasterChain, type RawEvent } from './upcast.js';
import { thrown } from '../../../../test/support/thrown.js';

// A three-version history of one made-up type: v1 `n`, v2 renamed `count`, v3 added `unit`.
const current = new Map([
  ['widget', 3],
  ['plain', 1],
]);
const steps = [
  { type: 'widget', from: 2, upcast: (e: RawEvent) => ({ ...e, unit: 'each' }) },
  { type: 'widget', from: 1, upcast: (e: RawEvent) => renameField(e, 'n', 'count') },
];

describe('upcasterChain', () => {
  const upcast = upcasterChain(current, steps);

  it('composes v1 → v2 → v3, and v2 → v3, and sets v to the current version right after type', () => {
    const v1 = upcast({ seq: 1, type: 'widget', n: 4 });
    expect(v1).toEqual({ seq: 1, type: 'widget', v: 3, count: 4, unit: 'each' });
    expect(Object.keys(v1)).toEqual(['seq', 'type', 'v', 'count', 'unit']);
    expect(upcast({ seq: 1, type: 'widget', v: 2, count: 4 })).toEqual({
      seq: 1,
      type: 'widget',
      v: 3,
      count: 4,
      unit: 'each',
    });
  });

  it('leaves a current-version line as it is, `v` absent meaning version 1', () => {
    const line = { seq: 1, type: 'widget', v: 3, count: 4, unit: 'kg' };
    expect(upcast(line)).toBe(line);
    const plain = { seq: 1, type: 'plain' };
    expect(upcast(plain)).toBe(plain);
  });

  it('refuses a version newer than the catalogue as UNSUPPORTED_VERSION naming the line', () => {
    const error = thrown(() =>
      upcast({ type: 'widget', v: 4 }, { file: 'log/p/000001.jsonl', line: 7 }),
    );
    expect(hasErrorCode(error, 'UNSUPPORTED_VERSION')).toBe(true);
    expect(isMemError(error) && error.details).toMatchObject({
      file: 'log/p/000001.jsonl',
      line: 7,
      type: 'widget',
      version: 4,
      supported: 3,
    });
    expect(
      hasErrorCode(
        thrown(() => upcast({ type: 'plain', v: 2 })),
        'UNSUPPORTED_VERSION',
      ),
    ).toBe(true);
  });

  it('refuses a `v` that is not an integer >= 2 (version 1 is written without one)', () => {
    for (const v of [1, 0, 2.5, '2', null]) {
      const error = thrown(() => upcast({ type: 'widget', v }, { line: 3 }));
      expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
      expect(isMemError(error) && error.details).toMatchObject({ line: 3, field: 'v' });
    }
  });

  it('names the line when a step refuses what it was given', () => {
    const error = thrown(() => upcast({ type: 'widget', count: 4 }, { line: 9 }));
    expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
    expect(isMemError(error) && error.details).toMatchObject({
      line: 9,
      field: 'count',
      type: 'widget',
      version: 1,
    });
  });

  it('refuses a catalogue with a missing, duplicate or stray step when it is built', () => {
    expect(
      hasErrorCode(
        thrown(() => upcasterChain(current, steps.slice(0, 1))),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() => upcasterChain(current, [...steps, steps[0]!])),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() =>
          upcasterChain(current, [
            ...steps,
            { type: 'plain', from: 1, upcast: (e: RawEvent) => e },
          ]),
        ),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() =>
          upcasterChain(current, [...steps, { type: 'nope', from: 1, upcast: (e: RawEvent) => e }]),
        ),
        'INVALID_INPUT',
      ),
    ).toBe(true);
  });
});

describe('parseEvent reads every version of recovery', () => {
  const envelope = {
    seq: 4,
    ts: '2026-08-17T09:00:00.000Z',
    project: 'demo',
    type: 'recovery',
    writer: { kind: 'log' },
  };
  const tail = { dropped_bytes: 9, dropped_sha256: 'b'.repeat(64), prev: genesisHash('demo') };

  it('a version-1 line (`offset`, no `v`) becomes the current version', () => {
    const event = parseEvent({ ...envelope, segment: '000001.jsonl', offset: 120, ...tail });
    expect(event).toEqual({
      ...envelope,
      v: 2,
      segment: '000001.jsonl',
      truncated_at: 120,
      ...tail,
    });
  });

  it('a version-2 line is read as it is', () => {
    const line = { ...envelope, v: 2, segment: '000001.jsonl', truncated_at: 120, ...tail };
    expect(parseEvent(line)).toEqual(line);
  });

  it('re-validates what the upcaster made: a bad v1 field is INVALID_EVENT on the current field', () => {
    const error = thrown(() =>
      parseEvent({ ...envelope, segment: '000001.jsonl', offset: -1, ...tail }, { line: 2 }),
    );
    expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
    expect(isMemError(error) && error.details).toMatchObject({ line: 2, field: 'truncated_at' });
  });

  it('refuses recovery version 3 as UNSUPPORTED_VERSION, and a v2 line without its `v`', () => {
    expect(
      hasErrorCode(
        thrown(() =>
          parseEvent({ ...envelope, v: 3, segment: '000001.jsonl', truncated_at: 1, ...tail }),
        ),
        'UNSUPPORTED_VERSION',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() =>
          parseEvent({ ...envelope, segment: '000001.jsonl', truncated_at: 1, ...tail }),
        ),
        'INVALID_EVENT',
      ),
    ).toBe(true);
  });

  it('refuses `v` on a type still at version 1', () => {
    const error = thrown(() =>
      parseEvent({
        ...envelope,
        type: 'tombstone',
        v: 2,
        target: 'a'.repeat(64),
        reason: 'x',
        prev: genesisHash('demo'),
      }),
    );
    expect(hasErrorCode(error, 'UNSUPPORTED_VERSION')).toBe(true);
  });
});
