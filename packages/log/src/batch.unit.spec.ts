import { contentSha256, genesisHash, hasErrorCode, type Payload } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import {
  chainBatch,
  extendBatch,
  isValidBatch,
  lineBufferFor,
  validateBatch,
  type ChainLink,
} from './batch.js';
import { thrown } from '../../../test/support/thrown.js';

const target = 'a'.repeat(64);
const text = 'The build cache lives in .mem/cache';
const payloads: Payload[] = [
  { type: 'tombstone', target, reason: 'first' },
  {
    type: 'evidence',
    run_id: 'run-1',
    level: 'L0',
    t: 1,
    source: 'claude:s1',
    text,
    sha256: contentSha256(text),
  },
  {
    type: 'reference',
    level: 'R',
    source: 'docs:readme',
    heading_path: ['Intro', 'Ünïcode ✓'],
    text,
    sha256: contentSha256(text),
  },
  { type: 'tombstone', target, reason: 'line\nbreak and "quotes"' },
  {
    type: 'recovery',
    segment: '000001.jsonl',
    truncated_at: 120,
    dropped_bytes: 9,
    dropped_sha256: target,
  },
];

describe('chainBatch', () => {
  it('writes the same bytes and hashes as test/support chainEvents', () => {
    const expected = chainEvents('demo', payloads, {
      writer: { kind: 'cli' },
      startTs: '2026-08-17T09:00:00.000Z',
    });
    let head: ChainLink = { seq: 0, hash: genesisHash('demo') };
    const lines: string[] = [];
    payloads.forEach((payload, index) => {
      const ts = new Date(Date.parse('2026-08-17T09:00:00.000Z') + index * 1000).toISOString();
      const batch = chainBatch('demo', head, [{ payload, writer: { kind: 'cli' } }], ts);
      lines.push(batch.bytes.toString('utf8'));
      head = batch.head;
    });
    expect(lines.join('')).toBe(expected.map((e) => `${e.line}\n`).join(''));
    expect(head).toEqual({ seq: 5, hash: expected.at(-1)!.hash });
    // A type past version 1 is written at its current version, `v` right after `type`.
    expect(lines[4]).toContain('"type":"recovery","v":2,"writer":');
    expect(lines[0]).not.toContain('"v":');
  });

  it('chains a whole batch after a head, one line per event, each ending in a newline', () => {
    const head = { seq: 41, hash: 'b'.repeat(64) };
    const batch = chainBatch(
      'demo',
      head,
      payloads.map((payload) => ({ payload, writer: { kind: 'cli' } })),
      '2026-08-17T09:00:00.000Z',
    );
    const lines = batch.bytes.toString('utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(payloads.length + 1);
    expect(batch.events.map((e) => e.seq)).toEqual([42, 43, 44, 45, 46]);
    expect(batch.events[0]!.prev).toBe(head.hash);
    expect(batch.head.seq).toBe(46);
  });

  it('chains batches into one shared buffer: the group is their lines in order, each batch its own', () => {
    const head = { seq: 0, hash: genesisHash('demo') };
    const ts = '2026-08-17T09:00:00.000Z';
    const entries = payloads.map((payload) => ({ payload, writer: { kind: 'cli' } }));
    const apart = [chainBatch('demo', head, entries.slice(0, 2), ts)];
    apart.push(chainBatch('demo', apart[0]!.head, entries.slice(2), ts));
    // Room for one event only: the shared buffer has to grow while the batches are chained.
    const out = lineBufferFor(1);
    const first = chainBatch('demo', head, entries.slice(0, 2), ts, out);
    const second = chainBatch('demo', first.head, entries.slice(2), ts, out);
    expect(out.bytes().toString('utf8')).toBe(
      apart.map((batch) => batch.bytes.toString('utf8')).join(''),
    );
    expect(first.bytes.toString('utf8')).toBe(apart[0]!.bytes.toString('utf8'));
    expect(second.bytes.toString('utf8')).toBe(apart[1]!.bytes.toString('utf8'));
    expect(second.head).toEqual(apart[1]!.head);
  });
});

describe('validateBatch', () => {
  it('names the position of the first bad payload as its line', () => {
    const bad = [payloads[0], { type: 'tombstone', target: 'nope', reason: 'x' }, payloads[1]];
    const error = thrown(() => validateBatch(bad, { kind: 'cli' }));
    expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
    expect((error as { details: { line: number; field: string } }).details).toMatchObject({
      line: 2,
      field: 'target',
    });
  });

  it('refuses unknown types, empty batches, bad writers and recovery events', () => {
    expect(
      hasErrorCode(
        thrown(() => validateBatch([payloads[0], { type: 'nope' }], { kind: 'cli' })),
        'UNKNOWN_EVENT_TYPE',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() => validateBatch([], { kind: 'cli' })),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() => validateBatch([payloads[0]], { kind: 'Not A Kind' })),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() => validateBatch([payloads[0]], { kind: 'cli', secret: 'x' })),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    const recovery = {
      type: 'recovery',
      segment: '000001.jsonl',
      truncated_at: 0,
      dropped_bytes: 1,
      dropped_sha256: target,
    };
    expect(
      hasErrorCode(
        thrown(() => validateBatch([recovery], { kind: 'cli' })),
        'INVALID_INPUT',
      ),
    ).toBe(true);
  });

  it('reports a content sha that does not match its text', () => {
    const error = thrown(() =>
      validateBatch([{ ...payloads[1], sha256: target }], { kind: 'cli' }),
    );
    expect(hasErrorCode(error, 'SHA_MISMATCH')).toBe(true);
  });
});

describe('validated batches', () => {
  it('marks what validateBatch made, frozen; a look-alike is not valid', () => {
    const batch = validateBatch(payloads.slice(0, 2), { kind: 'cli' });
    expect(isValidBatch(batch)).toBe(true);
    expect(Object.isFrozen(batch.payloads)).toBe(true);
    expect(Object.isFrozen(batch.payloads[0])).toBe(true);
    expect(isValidBatch({ payloads: batch.payloads, writer: batch.writer })).toBe(false);
    expect(isValidBatch(null)).toBe(false);
  });

  it('names where a payload came from when told, and refuses recovery there too', () => {
    const at = (index: number) => ({ file: 'in.jsonl', line: [4, 9][index]! });
    const bad = thrown(() =>
      validateBatch([payloads[0], { type: 'tombstone' }], { kind: 'cli' }, at),
    );
    expect((bad as { details: object }).details).toMatchObject({ file: 'in.jsonl', line: 9 });
    const recovery = thrown(() => validateBatch([payloads[4]], { kind: 'cli' }, at));
    expect(hasErrorCode(recovery, 'INVALID_INPUT')).toBe(true);
    expect((recovery as Error).message).toMatch(/^in\.jsonl:line 4: recovery events/);
  });

  it('extends a batch, validating only what is added, numbered after it', () => {
    const batch = validateBatch([payloads[0]], { kind: 'cli' });
    expect(extendBatch(batch, [])).toBe(batch);
    const extended = extendBatch(batch, [payloads[3]]);
    expect(isValidBatch(extended)).toBe(true);
    expect(extended.payloads).toEqual([payloads[0], payloads[3]]);
    expect(extended.writer).toEqual({ kind: 'cli' });
    const bad = thrown(() => extendBatch(batch, [{ type: 'tombstone' }]));
    expect((bad as { details: object }).details).toMatchObject({ line: 2 });
    const forged = { payloads: [payloads[0]!], writer: { kind: 'cli' } };
    expect(
      hasErrorCode(
        thrown(() => extendBatch(forged, [payloads[3]])),
        'INVALID_INPUT',
      ),
    ).toBe(true);
  });
});
