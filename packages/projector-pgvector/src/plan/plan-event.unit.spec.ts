import { describe, expect, it } from 'vitest';
import { contentSha256, type LogEvent } from '@mem/core';
import { chainEvents, payload } from '../../test/support.js';
import { PGVECTOR_HANDLES, planEvent } from './plan-event.js';
import { lineVectorTexts, vectorTexts } from './vector-texts.js';

const events = (...payloads: Parameters<typeof chainEvents>[1]) =>
  chainEvents('demo', payloads).map((c) => c.event);

describe('planEvent', () => {
  it('plans a memory: its node (with symptom), the chain step, its distinct parents, its lines, one fold per signature line', () => {
    const [, , memory] = events(
      payload.run('r1'),
      payload.evidence('r1', 1, 'kong buffered the body'),
      payload.memory(
        'r1',
        1,
        'Requests over 10KB failed: Kong buffered the body.',
        ['kong buffered the body', 'kong buffered the body'],
        {
          symptom: '413 Request Entity Too Large\nworker-7 timed out after 30s',
          // The failures the line was drawn from, as the extractor records them on the line.
          failures: ['413 Request Entity Too Large', 'worker-7 timed out after 30s'],
        },
      ),
    );
    const writes = planEvent(memory!);
    expect(writes.map((w) => w.statement)).toEqual([
      'insertNode',
      'advanceChain',
      'insertEdges',
      'insertLines',
      'holdSuccessors',
      'refreshLines',
      'foldSignature',
      'foldSignature',
    ]);
    expect(writes[0]).toMatchObject({
      params: {
        level: 'L1',
        kind: 'memory',
        run_id: 'r1',
        t: 1,
        symptom: '413 Request Entity Too Large\nworker-7 timed out after 30s',
        seq: 3,
      },
    });
    expect(writes[2]).toMatchObject({
      params: {
        parents: [contentSha256('kong buffered the body')],
        preferred_level: 'L0',
        child_level: 'L1',
      },
    });
    expect(writes[3]).toEqual({
      statement: 'insertLines',
      params: {
        project: 'demo',
        level: 'L1',
        memory_sha: contentSha256('Requests over 10KB failed: Kong buffered the body.'),
        lines: [
          {
            sha256: contentSha256('Requests over 10KB failed: Kong buffered the body.'),
            text: 'Requests over 10KB failed: Kong buffered the body.',
          },
        ],
        symptom: '413 Request Entity Too Large\nworker-7 timed out after 30s',
        seq: 3,
      },
    });
    // The raw text of a fold is the memory line seen with the failure, not the error line.
    const line = 'Requests over 10KB failed: Kong buffered the body.';
    expect(writes[6]).toMatchObject({
      params: { signature: '413 Request Entity Too Large', node_level: 'L1', raw: line },
    });
    expect(writes[7]).toMatchObject({
      params: { signature: 'worker-<id> timed out after <dur>', node_level: 'L1', raw: line },
    });
  });

  it('plans an L2 memory with L1 as the preferred parent level, and no signatures without a symptom', () => {
    const [, memory] = events(
      payload.run('s1', null),
      payload.memory('s1', 1, 'Project state: one finding.', ['a finding'], { level: 'L2' }),
    );
    const writes = planEvent(memory!);
    expect(writes.map((w) => w.statement)).toEqual([
      'insertNode',
      'advanceChain',
      'insertEdges',
      'insertLines',
      'holdSuccessors',
      'refreshLines',
    ]);
    expect(writes[2]).toMatchObject({ params: { preferred_level: 'L1', child_level: 'L2' } });
  });

  it('plans evidence and references as nodes, a run as its query, a tombstone as its write and a refresh of the lines it touches', () => {
    const [run, evidence, reference, tombstone] = events(
      payload.run('r1', 'open-questions'),
      payload.evidence('r1', 1, 'e'),
      payload.reference('kubectl get pods'),
      payload.tombstone('e'),
    );
    expect(planEvent(run!)).toEqual([
      {
        statement: 'insertRun',
        params: { project: 'demo', run_id: 'r1', level: 'L1', query_id: 'open-questions' },
      },
    ]);
    expect(planEvent(evidence!)).toMatchObject([
      {
        statement: 'insertNode',
        params: { level: 'L0', kind: 'evidence', source: 'claude:session-1', symptom: null },
      },
    ]);
    expect(planEvent(reference!)).toMatchObject([
      { statement: 'insertNode', params: { level: 'R', kind: 'reference', run_id: null, t: null } },
    ]);
    expect(planEvent(tombstone!)).toEqual([
      {
        statement: 'applyTombstone',
        params: {
          project: 'demo',
          target: contentSha256('e'),
          reason: 'removed in a test',
          seq: 4,
          ts: tombstone!.ts,
        },
      },
      { statement: 'refreshLines', params: { project: 'demo', shas: [contentSha256('e')] } },
    ]);
  });

  it('leaves events that only advance the position to routing: the engine hands them past, a planner handed one refuses it', () => {
    const [, chunk, gate, end] = events(
      payload.run('r1'),
      {
        type: 'chunk',
        run_id: 'r1',
        level: 'L0',
        t: 1,
        source: 's',
        span: [0, 1],
        sha256: 'a'.repeat(64),
      },
      {
        type: 'gate',
        run_id: 'r1',
        level: 'L1',
        t: 1,
        update: false,
        exit: false,
        think: 'noise',
        latency_ms: 1,
      },
      {
        type: 'run_end',
        run_id: 'r1',
        level: 'L1',
        chunks_seen: 1,
        chunks_used: 0,
        final_memory_sha: null,
      },
    );
    for (const event of [chunk, gate, end]) {
      expect(PGVECTOR_HANDLES).not.toContain(event!.type);
      expect(() => planEvent(event!)).toThrow(
        expect.objectContaining({ code: 'UNKNOWN_EVENT_TYPE' }),
      );
    }
  });

  it('refuses an unknown event type with UNKNOWN_EVENT_TYPE', () => {
    const [event] = events(payload.tombstone('x'));
    const bogus = { ...event!, type: 'telepathy' } as unknown as LogEvent;
    expect(() => planEvent(bogus)).toThrow(
      expect.objectContaining({
        code: 'UNKNOWN_EVENT_TYPE',
        details: expect.objectContaining({ type: 'telepathy', seq: 1 }),
      }),
    );
  });
});

describe('vectorTexts', () => {
  it('gives references a text vector, memories and evidence none (their lines carry the vectors)', () => {
    const [, evidence, memory, reference] = events(
      payload.run('r1'),
      payload.evidence('r1', 1, 'e'),
      payload.memory('r1', 1, 'm', ['e'], { symptom: 'npm ERR! ERESOLVE' }),
      payload.reference('r'),
    );
    const node = (e: LogEvent) =>
      (
        planEvent(e)[0] as Extract<
          ReturnType<typeof planEvent>[number],
          { statement: 'insertNode' }
        >
      ).params;
    expect(vectorTexts(node(evidence!))).toEqual([]);
    expect(vectorTexts(node(memory!))).toEqual([]);
    expect(vectorTexts(node(reference!))).toEqual([{ kind: 'text', text: 'r' }]);
  });

  it('gives a line a text vector, and a symptom vector when its memory carries one', () => {
    expect(lineVectorTexts({ text: 'm' }, 'npm ERR! ERESOLVE')).toEqual([
      { kind: 'text', text: 'm' },
      { kind: 'symptom', text: 'npm ERR! ERESOLVE' },
    ]);
    expect(lineVectorTexts({ text: 'm' }, null)).toEqual([{ kind: 'text', text: 'm' }]);
  });

  it('plans a superseded line as the supersession and its successor line, a superseded memory as the supersession alone', () => {
    const old = contentSha256('pg started first');
    const after = contentSha256('pg raced its volume');
    const correction = (target_kind: 'line' | 'memory') => ({
      type: 'superseded' as const,
      target: old,
      target_kind,
      before_sha256: old,
      after_sha256: after,
      text: 'pg raced its volume',
      reason: 'reworded',
    });
    const [line, memory] = events(correction('line'), correction('memory'));
    expect(planEvent(line!)).toEqual([
      {
        statement: 'supersede',
        params: { project: 'demo', target: old, target_kind: 'line', after_sha256: after },
      },
      {
        statement: 'insertSuccessorLines',
        params: {
          project: 'demo',
          target: old,
          after_sha256: after,
          text: 'pg raced its volume',
          seq: 1,
        },
      },
    ]);
    expect(planEvent(memory!).map((w) => w.statement)).toEqual(['supersede']);
  });
});
