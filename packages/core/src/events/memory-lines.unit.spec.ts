import { describe, expect, it } from 'vitest';
import { contentSha256 } from '../identity.js';
import { thrown } from '../../../../test/support/thrown.js';
import type { MemError } from '../errors.js';
import { memoryLines, splitMemoryLines, uniformLines, withoutMemoryLines } from './memory-lines.js';
import { parseEvent, parsePayload } from './parse.js';
import { serializeEvent } from './serialize.js';

const sha = (text: string) => contentSha256(text);
const E1 = sha('kong evidence');
const E2 = sha('pg evidence');
const TEXT =
  '- Kong buffered bodies over 10KB; proxy-body-size fixed it.\n- Postgres raced its mount.';
const [KONG, PG] = [
  'Kong buffered bodies over 10KB; proxy-body-size fixed it.',
  'Postgres raced its mount.',
];

function memory(lines: unknown, parents = [E1, E2]) {
  return {
    type: 'memory',
    run_id: 'r-1',
    level: 'L1',
    t: 2,
    text: TEXT,
    tokens: 14,
    parents,
    sha256: sha(TEXT),
    lines,
  };
}

describe('memory lines', () => {
  it('splits a memory into its lines without list markers, blank lines or indentation', () => {
    expect(splitMemoryLines('- a\n\n  * b \n3. c\n+ d\nplain')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'plain',
    ]);
    expect(splitMemoryLines('-not a marker')).toEqual(['-not a marker']);
  });

  it('accepts a memory whose lines name their own parents, and joins each with its text', () => {
    const lines = [
      { sha256: sha(KONG), parents: [E1] },
      { sha256: sha(PG), parents: [E2] },
    ];
    const payload = parsePayload(memory(lines));
    expect(memoryLines(payload as Parameters<typeof memoryLines>[0])).toEqual([
      { text: KONG, sha256: sha(KONG), parents: [E1] },
      { text: PG, sha256: sha(PG), parents: [E2] },
    ]);
  });

  it.each([
    [
      'a line too few',
      [{ sha256: sha(KONG), parents: [E1, E2] }],
      'lines: expected 2 entries, one per line of text, got 1',
    ],
    [
      'a sha of another text',
      [
        { sha256: sha(PG), parents: [E1] },
        { sha256: sha(PG), parents: [E2] },
      ],
      `lines[0].sha256: expected ${sha(KONG)}`,
    ],
    [
      'a parent the memory does not name',
      [
        { sha256: sha(KONG), parents: [E1] },
        { sha256: sha(PG), parents: [sha('elsewhere')] },
      ],
      "lines[1].parents[0]: expected one of the memory's parents",
    ],
    [
      'a memory parent no line rests on',
      [
        { sha256: sha(KONG), parents: [E1] },
        { sha256: sha(PG), parents: [E1] },
      ],
      'parents: expected every parent to be a parent of some line',
    ],
    [
      'a line without parents',
      [
        { sha256: sha(KONG), parents: [] },
        { sha256: sha(PG), parents: [E1, E2] },
      ],
      'lines[0].parents: expected at least one parent sha',
    ],
  ])('refuses %s, naming the field', (_, lines, message) => {
    const error = thrown(() => parsePayload(memory(lines))) as MemError;
    expect(error.code).toBe('INVALID_EVENT');
    expect(error.message).toContain(message);
  });

  it('reads a version-1 memory line (no lines) as version 2, every line resting on all its parents', () => {
    const v1 = {
      seq: 3,
      ts: '2026-01-01T00:00:00.000Z',
      project: 'demo',
      type: 'memory',
      writer: { kind: 'cli' },
      run_id: 'r-1',
      level: 'L1',
      t: 2,
      text: TEXT,
      tokens: 14,
      parents: [E1, E2],
      sha256: sha(TEXT),
      symptom: 'proxy-body-size',
      prev: sha('prev'),
    };
    const event = parseEvent(v1);
    expect(event).toMatchObject({
      v: 2,
      lines: uniformLines(TEXT, [E1, E2]),
      symptom: 'proxy-body-size',
    });
    // The upcast line serialises in catalogue order: lines after sha256, before symptom and prev.
    expect(Object.keys(JSON.parse(serializeEvent(event)))).toEqual([
      'seq',
      'ts',
      'project',
      'type',
      'v',
      'writer',
      'run_id',
      'level',
      't',
      'text',
      'tokens',
      'parents',
      'sha256',
      'lines',
      'symptom',
      'prev',
    ]);
  });

  it('serialises each line entry as sha256 then parents, however it was built', () => {
    const event = parseEvent({
      seq: 1,
      ts: '2026-01-01T00:00:00.000Z',
      project: 'demo',
      type: 'memory',
      v: 2,
      writer: { kind: 'cli' },
      run_id: 'r-1',
      level: 'L1',
      t: 1,
      text: 'one line',
      tokens: 2,
      parents: [E1],
      sha256: sha('one line'),
      lines: [{ sha256: sha('one line'), parents: [E1] }],
      prev: sha('p'),
    });
    const shuffled = {
      ...event,
      lines: [{ parents: [E1], sha256: sha('one line') }],
    } as typeof event;
    expect(serializeEvent(shuffled)).toBe(serializeEvent(event));
    expect(serializeEvent(event)).toContain(
      `"lines":[{"sha256":"${sha('one line')}","parents":["${E1}"]}]`,
    );
  });
});

describe('withoutMemoryLines', () => {
  it('drops the lines whose content sha is named, keeping the others as written', () => {
    expect(withoutMemoryLines(TEXT, new Set([sha(KONG)]))).toBe(`- ${PG}`);
    // A sha is of the normalised line: case and the list marker do not hide it.
    expect(withoutMemoryLines(`* ${KONG.toUpperCase()}\n\n- ${PG}`, new Set([sha(KONG)]))).toBe(
      `\n- ${PG}`,
    );
    expect(withoutMemoryLines(TEXT, new Set([sha('unrelated')]))).toBe(TEXT);
    expect(withoutMemoryLines(TEXT, new Set([sha(KONG), sha(PG)]))).toBe('');
  });
});
