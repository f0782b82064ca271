import { genesisHash, hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { resolveLine, walkState, type WalkState } from './chain-walk.js';

const events = chainEvents(
  'demo',
  Array.from({ length: 6 }, (_, n) => ({
    type: 'tombstone',
    target: 'a'.repeat(64),
    reason: `r${n}`,
  })),
);
const lines = events.map((e) => Buffer.from(e.line));

function walk(input: Buffer[], fromSeq = 1): { seqs: number[]; state: WalkState } {
  const state = walkState(
    { seq: 0, hash: genesisHash('demo'), segment: null, line: 0 },
    fromSeq,
    undefined,
  );
  const seqs: number[] = [];
  input.forEach((bytes, index) => {
    const logged = resolveLine(
      bytes,
      { project: 'demo', segment: '000001.jsonl', file: 'f', line: index + 1 },
      state,
    );
    if (logged) seqs.push(logged.event.seq);
  });
  return { seqs, state };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return hasErrorCode(error, 'CHAIN_BROKEN') ? 'CHAIN_BROKEN' : (error as { code?: string }).code;
  }
  return undefined;
}

describe('resolveLine', () => {
  it('yields every line from fromSeq with its hash, skipping earlier ones', () => {
    expect(walk(lines).seqs).toEqual([1, 2, 3, 4, 5, 6]);
    const { seqs, state } = walk(lines, 4);
    expect(seqs).toEqual([4, 5, 6]);
    expect(state.link).toMatchObject({ seq: 6, hash: events[5]!.hash, line: 6 });
  });

  it('still checks skipped lines by seq, and the first wanted line against the last skipped one', () => {
    expect(codeOf(() => walk([lines[0]!, lines[2]!, lines[3]!], 4))).toBe('CHAIN_BROKEN');
    const edited = Buffer.from(events[2]!.line.replace('"reason":"r2"', '"reason":"xx"'));
    expect(codeOf(() => walk([lines[0]!, lines[1]!, edited, lines[3]!], 4))).toBe('CHAIN_BROKEN');
  });

  it('fully validates wanted lines', () => {
    const bad = Buffer.from(events[4]!.line.replace('"type":"tombstone"', '"type":"nope"'));
    expect(codeOf(() => walk([...lines.slice(0, 4), bad], 3))).toBe('UNKNOWN_EVENT_TYPE');
  });

  it('checks the caller’s expected head on the first wanted line', () => {
    const state = walkState(null, 3, events[1]!.hash);
    const at = { project: 'demo', segment: '000002.jsonl', file: 'f', line: 1 };
    expect(resolveLine(lines[2]!, at, state)?.event.seq).toBe(3);
    const wrong = walkState(null, 3, events[0]!.hash);
    expect(codeOf(() => resolveLine(lines[2]!, at, wrong))).toBe('CHAIN_BROKEN');
  });
});
