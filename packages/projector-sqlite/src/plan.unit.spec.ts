import { contentSha256, hasErrorCode, itemId, memoryLines, type LogEvent } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents, fixturePayloads } from '../test/support.js';
import { lineNodeId, nodeId } from './node-id.js';
import { SQLITE_HANDLES, planEvent } from './plan.js';

const P = 'demo';
const fixture = chainEvents(P, fixturePayloads()).map((e) => e.event);
const first = <T extends LogEvent['type']>(type: T) =>
  fixture.find((e) => e.type === type) as Extract<LogEvent, { type: T }>;
const REF_TEXT = 'Use pg_isready as the readiness probe.';
const extra = chainEvents(P, [
  {
    type: 'reference',
    level: 'R',
    source: 'docs:ops.md',
    heading_path: ['Ops', 'Postgres'],
    text: REF_TEXT,
    sha256: contentSha256(REF_TEXT),
  },
  { type: 'tombstone', target: contentSha256(REF_TEXT), reason: 'outdated' },
  {
    type: 'recovery',
    segment: '000001.jsonl',
    truncated_at: 120,
    dropped_bytes: 9,
    dropped_sha256: contentSha256('torn'),
  },
  {
    type: 'run_end',
    run_id: 'r-1',
    level: 'L1',
    chunks_seen: 3,
    chunks_used: 0,
    final_memory_sha: null,
    error: { message: 'timeout', code: 'LLM_TIMEOUT' },
  },
]).map((e) => e.event);

describe('planEvent', () => {
  it('plans a run start with exit_gate as 0/1', () => {
    expect(planEvent(first('run'))).toEqual([
      {
        statement: 'startRun',
        params: {
          project: P,
          run_id: 'run-2026-08-17-infra-1',
          level: 'L1',
          query_id: 'infra-root-causes',
          input_level: 'chunk',
          model: 'heuristic',
          chunk_tokens: 5000,
          memory_budget: 1024,
          exit_gate: 0,
          seq: 1,
          ts: '2026-08-17T09:00:00.000Z',
        },
      },
    ]);
  });

  it('plans a chunk with its span as two integers, or two nulls', () => {
    const [l0] = planEvent(first('chunk'));
    expect(l0).toMatchObject({
      statement: 'insertChunk',
      params: { t: 1, level: 'L0', span_start: 0, span_end: 42, seq: 2 },
    });
    const l1Chunk = fixture.find((e) => e.type === 'chunk' && e.level === 'L1')!;
    expect(planEvent(l1Chunk)[0]).toMatchObject({
      params: { level: 'L1', span_start: null, span_end: null, source: 'L1:infra-root-causes' },
    });
  });

  it('plans a gate with update and exit as 0/1', () => {
    const open = fixture.find((e) => e.type === 'gate' && e.update)!;
    expect(planEvent(open)).toEqual([
      {
        statement: 'insertGate',
        params: {
          project: P,
          run_id: 'run-2026-08-17-infra-1',
          t: 2,
          level: 'L1',
          update: 1,
          exit: 0,
          think: 'The chunk states a root cause and its fix.',
          latency_ms: 0,
          seq: 5,
        },
      },
    ]);
  });

  it('plans evidence as an L0 node with a derived id and empty meta', () => {
    const e = first('evidence');
    expect(planEvent(e)).toEqual([
      {
        statement: 'insertNode',
        params: {
          id: nodeId(P, 'L0', e.sha256),
          project: P,
          level: 'L0',
          kind: 'evidence',
          run_id: e.run_id,
          t: 2,
          source: e.source,
          text: e.text,
          sha256: e.sha256,
          seq: e.seq,
          ts: e.ts,
          meta: '{}',
        },
      },
    ]);
  });

  it('plans a memory: node, chain update, one edge per parent at the preferred level, then its lines', () => {
    const l1 = fixture.filter((e) => e.type === 'memory')[1]!;
    if (l1.type !== 'memory') throw new Error('fixture');
    const writes = planEvent(l1);
    const lines = memoryLines(l1);
    const lineWrites = lines.flatMap((line) => [
      'insertNode',
      'insertLineEdge',
      ...line.parents.map(() => 'insertLineEdge'),
      'holdSuccessors',
    ]);
    expect(writes.map((w) => w.statement)).toEqual([
      'insertNode',
      'supersedeMemoryChain',
      'setMemoryHead',
      'reinstateMemory',
      'insertEdge',
      'insertEdge',
      ...lineWrites,
      'refreshLines',
    ]);
    expect(writes[0]).toMatchObject({
      params: {
        level: 'L1',
        kind: 'memory',
        source: null,
        meta: `{"lines":${JSON.stringify(l1.lines.map((l) => ({ parents: l.parents, sha256: l.sha256 })))},"parents":${JSON.stringify(l1.parents)},"tokens":46}`,
      },
    });
    expect(writes[1]).toEqual({
      statement: 'supersedeMemoryChain',
      params: { project: P, level: 'L1', run_id: l1.run_id, sha256: l1.sha256, seq: l1.seq },
    });
    expect(writes.slice(4, 6).map((w) => w.params)).toEqual(
      l1.parents.map((parent) => ({
        project: P,
        child_level: 'L1',
        child_sha: l1.sha256,
        parent_sha: parent,
        preferred_level: 'L0',
      })),
    );
    // Each line: a node of kind line at the memory's level, an edge to the memory, one to each of its own parents.
    const first = lines[0]!;
    expect(writes[6]).toMatchObject({
      statement: 'insertNode',
      params: {
        id: lineNodeId(P, 'L1', first.sha256),
        level: 'L1',
        kind: 'line',
        text: first.text,
        sha256: first.sha256,
      },
    });
    expect(writes.slice(7, 8 + first.parents.length).map((w) => w.params)).toEqual([
      { project: P, level: 'L1', line_sha: first.sha256, kind: 'memory', target_sha: l1.sha256 },
      ...first.parents.map((parent) => ({
        project: P,
        level: 'L1',
        line_sha: first.sha256,
        kind: 'parent',
        target_sha: parent,
      })),
    ]);
    expect(writes.at(-1)).toEqual({
      statement: 'refreshLines',
      params: { project: P, sha256: l1.sha256 },
    });
    const l2 = fixture.find((e) => e.type === 'memory' && e.level === 'L2')!;
    expect(
      planEvent(l2)
        .filter((w) => w.statement === 'insertEdge')
        .at(-1),
    ).toMatchObject({ params: { child_level: 'L2', preferred_level: 'L1' } });
  });

  it('plans a run end, with its error as canonical JSON', () => {
    expect(planEvent(first('run_end'))[0]).toMatchObject({
      statement: 'endRun',
      params: { chunks_seen: 5, chunks_used: 2, error: null, seq: 16 },
    });
    expect(planEvent(extra[3]!)[0]).toMatchObject({
      params: { final_memory_sha: null, error: '{"code":"LLM_TIMEOUT","message":"timeout"}' },
    });
  });

  it('plans a reference as an R node with its heading path in meta', () => {
    expect(planEvent(extra[0]!)).toEqual([
      {
        statement: 'insertNode',
        params: {
          id: nodeId(P, 'R', contentSha256(REF_TEXT)),
          project: P,
          level: 'R',
          kind: 'reference',
          run_id: null,
          t: null,
          source: 'docs:ops.md',
          text: REF_TEXT,
          sha256: contentSha256(REF_TEXT),
          seq: 1,
          ts: '2026-08-17T09:00:00.000Z',
          meta: '{"heading_path":["Ops","Postgres"]}',
        },
      },
    ]);
  });

  it('plans a tombstone: record it, then mark the nodes it targets', () => {
    const target = contentSha256(REF_TEXT);
    expect(planEvent(extra[1]!)).toEqual([
      {
        statement: 'insertTombstone',
        params: { project: P, target, reason: 'outdated', seq: 2, ts: '2026-08-17T09:00:01.000Z' },
      },
      { statement: 'applyTombstone', params: { project: P, target } },
      { statement: 'refreshLines', params: { project: P, sha256: target } },
    ]);
  });

  it('plans an item added under a parent as its row holding the parent, no edge, its tags after', () => {
    // The parent is the item row's column (migration 0034): the row's insert indexes it in
    // item_fts with its parent token and counts it into its parent's tree, once (item-fts.ts,
    // orient-triggers.ts); a parent edge cost ~187 WAL pages of a 100-item commit at 100 k. The
    // row is also the item's "added" history entry (migration 0030): no item_history row follows.
    const parent = itemId(P, 1);
    const [added] = chainEvents(P, [
      {
        type: 'item_added',
        item_type: 'task',
        summary: 'Port the loader',
        parent,
        tags: ['io'],
      },
    ]).map((e) => e.event);
    const writes = planEvent(added!);
    expect(writes.map((w) => w.statement)).toEqual(['insertNode', 'insertItem', 'insertItemTag']);
    expect(writes[1]!.params).toMatchObject({ parent });
  });

  it("plans a parent relate and unrelate as the item row's column, any other relation as an edge", () => {
    const [item, target] = [itemId(P, 1), itemId(P, 2)];
    const events = chainEvents(P, [
      { type: 'item_related', item, relation: 'parent', target },
      { type: 'item_unrelated', item, relation: 'parent', target, reason: 'moved' },
      { type: 'item_related', item, relation: 'link', target },
      { type: 'item_unrelated', item, relation: 'link', target, reason: 'stale' },
    ]).map((e) => e.event);
    const parent = { project: P, id: item, parent: target };
    const link = { project: P, item, target, relation: 'link' };
    expect(events.map((e) => planEvent(e)[0])).toEqual([
      { statement: 'setItemParent', params: parent },
      { statement: 'clearItemParent', params: parent },
      { statement: 'insertItemEdge', params: link },
      { statement: 'deleteItemEdge', params: link },
    ]);
  });

  it('leaves recovery and settings to routing: the engine hands them past, and a planner handed one refuses it', () => {
    expect(SQLITE_HANDLES).not.toContain('recovery');
    expect(SQLITE_HANDLES).not.toContain('projection_settings_set');
    expect(() => planEvent(extra[2]!)).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_EVENT_TYPE' }),
    );
  });

  it('is pure: the same event plans the same writes', () => {
    const handled = [...fixture, ...extra].filter((event) =>
      (SQLITE_HANDLES as readonly string[]).includes(event.type),
    );
    for (const event of handled)
      expect(planEvent(event)).toEqual(planEvent(structuredClone(event)));
  });

  it('refuses an unknown event type with UNKNOWN_EVENT_TYPE', () => {
    const bogus = { ...first('run'), type: 'mystery' } as unknown as LogEvent;
    let caught: unknown;
    try {
      planEvent(bogus);
    } catch (error) {
      caught = error;
    }
    expect(hasErrorCode(caught, 'UNKNOWN_EVENT_TYPE')).toBe(true);
    expect(caught).toMatchObject({ details: { type: 'mystery', project: P, seq: 1 } });
  });
});
