import { contentSha256 } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents } from '../test/support.js';
import { lineNodeId } from './node-id.js';
import { planEvent } from './plan.js';

const P = 'demo';
const LINE = contentSha256('the probe was reverted');
const MEMORY = contentSha256('a whole memory');
const NEW = contentSha256('the probe is back');
const [forgetLine, forgetMemory, supersedeMemory, supersedeLine] = chainEvents(P, [
  {
    type: 'forgotten',
    target: LINE,
    target_kind: 'line',
    before_sha256: LINE,
    refuses: [{ sha256: LINE, terms: [] }],
    reason: 'wrong',
  },
  {
    type: 'forgotten',
    target: MEMORY,
    target_kind: 'memory',
    before_sha256: MEMORY,
    refuses: [
      { sha256: LINE, terms: [] },
      { sha256: NEW, terms: [] },
    ],
    reason: 'all of it',
  },
  {
    type: 'superseded',
    target: MEMORY,
    target_kind: 'memory',
    before_sha256: MEMORY,
    after_sha256: NEW,
    text: 'the probe is back',
    reason: 'restored',
  },
  {
    type: 'superseded',
    target: LINE,
    target_kind: 'line',
    before_sha256: LINE,
    after_sha256: NEW,
    text: 'the probe is back',
    reason: 'restored',
  },
]).map((e) => e.event);

describe('planEvent: corrections (issue 12)', () => {
  it('a forgotten line gets a forgotten_line row, its line node is deleted and the memories holding it drop it', () => {
    expect(planEvent(forgetLine!)).toEqual([
      { statement: 'forgetLine', params: { project: P, sha256: LINE, target: LINE, seq: 1 } },
      { statement: 'forgetLineNode', params: { project: P, sha256: LINE, ts: forgetLine!.ts } },
      { statement: 'forgetMemoryLines', params: { project: P, shas: JSON.stringify([LINE]) } },
    ]);
  });

  it('a forgotten memory refuses each of its lines and is deleted as of the event', () => {
    expect(planEvent(forgetMemory!).map((w) => w.statement)).toEqual([
      'forgetLine',
      'forgetLineNode',
      'forgetLine',
      'forgetLineNode',
      'forgetMemoryLines',
      'forgetMemory',
    ]);
    expect(planEvent(forgetMemory!).at(-1)).toEqual({
      statement: 'forgetMemory',
      params: { project: P, target: MEMORY, ts: forgetMemory!.ts },
    });
  });

  it('a superseded memory points to the new sha, and its lines are judged again', () => {
    expect(planEvent(supersedeMemory!)).toEqual([
      {
        statement: 'supersedeLine',
        params: {
          project: P,
          sha256: MEMORY,
          target_kind: 'memory',
          after_sha256: NEW,
          seq: 3,
          actor: null,
          reason: 'restored',
        },
      },
      { statement: 'supersedeMemory', params: { project: P, target: MEMORY, after_sha256: NEW } },
      { statement: 'refreshLines', params: { project: P, sha256: MEMORY } },
    ]);
  });

  it("a line's confirmation with its cited spans replaces the line's earlier one; without them it writes nothing", () => {
    const [digest1, digest2] = [contentSha256('span read 1'), contentSha256('span read 2')];
    const [withCited, without, ofMemory] = chainEvents(P, [
      {
        type: 'confirmed',
        target: LINE,
        target_kind: 'line',
        before_sha256: LINE,
        cited: [
          { chunk: MEMORY, digest: digest1 },
          { chunk: NEW, digest: digest2 },
        ],
      },
      { type: 'confirmed', target: LINE, target_kind: 'line', before_sha256: LINE },
      { type: 'confirmed', target: MEMORY, target_kind: 'memory', before_sha256: MEMORY },
    ]).map((e) => e.event);
    expect(planEvent(withCited!)).toEqual([
      { statement: 'clearLineConfirmation', params: { project: P, line_sha: LINE } },
      {
        statement: 'confirmLine',
        params: { project: P, line_sha: LINE, chunk_sha: MEMORY, digest: digest1, seq: 1 },
      },
      {
        statement: 'confirmLine',
        params: { project: P, line_sha: LINE, chunk_sha: NEW, digest: digest2, seq: 1 },
      },
    ]);
    expect(planEvent(without!)).toEqual([]);
    expect(planEvent(ofMemory!)).toEqual([]);
  });

  it('a superseded line points to the new sha and its text becomes a line at each level, citing what the old one cited', () => {
    const writes = planEvent(supersedeLine!);
    expect(writes.map((w) => w.statement)).toEqual([
      'supersedeLine',
      'insertSuccessorLine',
      'copySuccessorEdges',
      'insertSuccessorLine',
      'copySuccessorEdges',
      'supersedeLineNode',
    ]);
    expect(writes[1]).toEqual({
      statement: 'insertSuccessorLine',
      params: {
        id: lineNodeId(P, 'L1', NEW),
        project: P,
        level: 'L1',
        sha256: LINE,
        after_sha256: NEW,
        text: 'the probe is back',
        seq: 4,
        ts: supersedeLine!.ts,
        meta: JSON.stringify({
          corrected_by: {
            actor: supersedeLine!.writer.principal ?? null,
            reason: 'restored',
            seq: 4,
            supersedes: LINE,
          },
        }),
      },
    });
  });
});
