import { MemError, type EventOf, type LogEvent } from '@mem/core';
import { canonicalJson } from './canonical-json.js';
import { nodeId } from './node-id.js';
import type { PlannedWrite } from './planned-write.js';

/**
 * The pure half of the projector: the writes one logged event plans, in order. No I/O, no
 * clock; lookups against earlier events are subqueries inside the named statements.
 * Throws UNKNOWN_EVENT_TYPE for a type outside the catalogue (it can only get here by
 * bypassing the log reader's validation, and silently skipping it would hide a hole).
 */
export function planEvent(event: LogEvent): PlannedWrite[] {
  switch (event.type) {
    case 'run':
      return [{ statement: 'startRun', params: startRun(event) }];
    case 'chunk':
      return [{ statement: 'insertChunk', params: chunk(event) }];
    case 'gate':
      return [{ statement: 'insertGate', params: gate(event) }];
    case 'evidence':
      return [{ statement: 'insertNode', params: evidenceNode(event) }];
    case 'memory':
      return memory(event);
    case 'run_end':
      return [{ statement: 'endRun', params: endRun(event) }];
    case 'reference':
      return [{ statement: 'insertNode', params: referenceNode(event) }];
    case 'tombstone':
      return tombstone(event);
    case 'recovery':
      // A torn line was dropped: nothing to project, only the position advances.
      return [];
    default:
      return unknownType(event);
  }
}

function unknownType(event: never): never {
  const { type, project, seq } = event as { type?: unknown; project?: unknown; seq?: unknown };
  throw new MemError('UNKNOWN_EVENT_TYPE', `projector sqlite cannot apply event type ${JSON.stringify(type)} (project ${String(project)}, seq ${String(seq)})`, {
    type,
    project,
    seq,
  });
}

function startRun(e: EventOf<'run'>) {
  return {
    project: e.project,
    run_id: e.run_id,
    level: e.level,
    query_id: e.query_id,
    input_level: e.input_level,
    model: e.model,
    chunk_tokens: e.chunk_tokens,
    memory_budget: e.memory_budget,
    exit_gate: bit(e.exit_gate),
    seq: e.seq,
    ts: e.ts,
  };
}

function endRun(e: EventOf<'run_end'>) {
  return {
    project: e.project,
    run_id: e.run_id,
    level: e.level,
    chunks_seen: e.chunks_seen,
    chunks_used: e.chunks_used,
    final_memory_sha: e.final_memory_sha,
    error: e.error === undefined ? null : canonicalJson(e.error),
    seq: e.seq,
    ts: e.ts,
  };
}

function chunk(e: EventOf<'chunk'>) {
  return {
    project: e.project,
    run_id: e.run_id,
    t: e.t,
    level: e.level,
    source: e.source,
    span_start: e.span === null ? null : e.span[0],
    span_end: e.span === null ? null : e.span[1],
    sha256: e.sha256,
    seq: e.seq,
  };
}

function gate(e: EventOf<'gate'>) {
  return {
    project: e.project,
    run_id: e.run_id,
    t: e.t,
    level: e.level,
    update: bit(e.update),
    exit: bit(e.exit),
    think: e.think,
    latency_ms: e.latency_ms,
    seq: e.seq,
  };
}

function evidenceNode(e: EventOf<'evidence'>) {
  return {
    id: nodeId(e.project, e.level, e.sha256),
    project: e.project,
    level: e.level,
    kind: 'evidence' as const,
    run_id: e.run_id,
    t: e.t,
    source: e.source,
    text: e.text,
    sha256: e.sha256,
    seq: e.seq,
    ts: e.ts,
    meta: canonicalJson({}),
  };
}

function referenceNode(e: EventOf<'reference'>) {
  return {
    id: nodeId(e.project, e.level, e.sha256),
    project: e.project,
    level: e.level,
    kind: 'reference' as const,
    run_id: null,
    t: null,
    source: e.source,
    text: e.text,
    sha256: e.sha256,
    seq: e.seq,
    ts: e.ts,
    meta: canonicalJson({ heading_path: e.heading_path }),
  };
}

function memory(e: EventOf<'memory'>): PlannedWrite[] {
  const chain = { project: e.project, level: e.level, run_id: e.run_id, sha256: e.sha256 };
  const preferred = e.level === 'L1' ? 'L0' : 'L1';
  return [
    {
      statement: 'insertNode',
      params: {
        id: nodeId(e.project, e.level, e.sha256),
        project: e.project,
        level: e.level,
        kind: 'memory',
        run_id: e.run_id,
        t: e.t,
        source: null,
        text: e.text,
        sha256: e.sha256,
        seq: e.seq,
        ts: e.ts,
        // parents keep their logged order here; edge rows are a set.
        meta: canonicalJson({ parents: e.parents, tokens: e.tokens }),
      },
    },
    { statement: 'supersedeMemoryChain', params: chain },
    { statement: 'reinstateMemory', params: chain },
    ...e.parents.map(
      (parent): PlannedWrite => ({
        statement: 'insertEdge',
        params: { project: e.project, child_level: e.level, child_sha: e.sha256, parent_sha: parent, preferred_level: preferred },
      }),
    ),
  ];
}

function tombstone(e: EventOf<'tombstone'>): PlannedWrite[] {
  return [
    { statement: 'insertTombstone', params: { project: e.project, target: e.target, reason: e.reason, seq: e.seq, ts: e.ts } },
    { statement: 'applyTombstone', params: { project: e.project, target: e.target } },
  ];
}

function bit(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}
