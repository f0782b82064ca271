import {
  MemError,
  SYSTEM_PROJECT,
  memoryLines,
  type EventOf,
  type EventType,
  type LogEvent,
} from '@mem/core';
import { canonicalJson } from './canonical-json.js';
import { lineNodeId, nodeId } from './node-id.js';
import type { AddedLineParams, PlannedWrite } from './planned-write.js';
import { ITEM_HANDLES, planItemEvent } from './plan-items.js';

/**
 * The event types that change the item store: every one except `recovery` (a dropped torn line)
 * and `projection_settings_set` (settings shape the vault; the item store is the same under
 * any). The engine hands the projector no others; they only advance its position.
 */
export const SQLITE_HANDLES = [
  'run',
  'chunk',
  'gate',
  'evidence',
  'memory',
  'run_end',
  'reference',
  'tombstone',
  'principal_added',
  'project_added',
  'member_added',
  'member_removed',
  'token_minted',
  'token_revoked',
  'ingest_accepted',
  'ingest_finished',
  'forgotten',
  'superseded',
  'line_added',
  'line_pinned',
  'line_unpinned',
  'confirmed',
  'review_opened',
  'review_decided',
  'idempotency_recorded',
  ...ITEM_HANDLES,
] as const satisfies readonly EventType[];

/** An event the item store handles. */
export type SqliteEvent = EventOf<(typeof SQLITE_HANDLES)[number]>;

function handled(event: LogEvent): event is SqliteEvent {
  return (SQLITE_HANDLES as readonly string[]).includes(event.type);
}

/**
 * The pure half of the projector: the writes one logged event plans, in order. No I/O, no
 * clock; lookups against earlier events are subqueries inside the named statements. The switch
 * is exhaustive over SQLITE_HANDLES: a type added there does not compile without its writes.
 * Throws UNKNOWN_EVENT_TYPE for anything else (it can only get here by bypassing the engine's
 * routing, and silently skipping it would hide a hole).
 */
export function planEvent(event: LogEvent): PlannedWrite[] {
  if (!handled(event)) return unknownType(event as never);
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
    case 'principal_added':
    case 'project_added':
    case 'member_added':
    case 'member_removed':
    case 'token_minted':
    case 'token_revoked':
      return identity(event);
    case 'ingest_accepted':
      return [{ statement: 'acceptIngest', params: acceptIngest(event) }];
    case 'ingest_finished':
      return [{ statement: 'finishIngest', params: finishIngest(event) }];
    case 'forgotten':
      return forgotten(event);
    case 'superseded':
      return superseded(event);
    case 'line_added':
      return [{ statement: 'insertAddedLine', params: addedLine(event) }];
    case 'review_opened':
      return [{ statement: 'openReview', params: openReview(event) }];
    case 'review_decided':
      return [
        {
          statement: 'decideReview',
          params: {
            project: event.project,
            id: event.id,
            decision: event.decision,
            seq: event.seq,
          },
        },
      ];
    case 'idempotency_recorded':
      return [
        {
          statement: 'recordIdempotency',
          params: {
            key_sha256: event.key_sha256,
            project: event.project,
            fingerprint: event.fingerprint,
            op: event.op,
            // The record closes its batch: the write is the `events` events right before it.
            first_seq: event.seq - event.events,
            last_seq: event.seq - 1,
            ts: event.ts,
            seq: event.seq,
          },
        },
      ];
    case 'line_pinned':
      return [
        {
          statement: 'pinLine',
          params: {
            project: event.project,
            level: event.level,
            sha256: event.target,
            seq: event.seq,
            actor: event.writer.principal ?? null,
            reason: event.reason,
          },
        },
      ];
    case 'confirmed':
      // A line's confirmation with its cited spans' digests replaces the line's earlier ones.
      if (event.target_kind !== 'line' || event.cited === undefined) return [];
      return [
        {
          statement: 'clearLineConfirmation',
          params: { project: event.project, line_sha: event.target },
        },
        ...event.cited.map((c) => ({
          statement: 'confirmLine' as const,
          params: {
            project: event.project,
            line_sha: event.target,
            chunk_sha: c.chunk,
            digest: c.digest,
            seq: event.seq,
          },
        })),
      ];
    case 'line_unpinned':
      return [
        {
          statement: 'unpinLine',
          params: { project: event.project, level: event.level, sha256: event.target },
        },
      ];
    case 'item_added':
    case 'item_updated':
    case 'item_resolved':
    case 'item_related':
    case 'item_unrelated':
    case 'item_deleted':
    case 'item_attention_set':
    case 'item_pinned':
    case 'item_unpinned':
    case 'item_logged':
      return planItemEvent(event);
    default:
      return unknownType(event);
  }
}

function openReview(e: EventOf<'review_opened'>) {
  return {
    project: e.project,
    id: e.id,
    kind: e.kind,
    subjects: JSON.stringify(e.subjects),
    explanation: e.explanation,
    seq: e.seq,
    opened_by: e.writer.principal ?? null,
  };
}

function unknownType(event: never): never {
  const { type, project, seq } = event as { type?: unknown; project?: unknown; seq?: unknown };
  throw new MemError(
    'UNKNOWN_EVENT_TYPE',
    `projector sqlite cannot apply event type ${JSON.stringify(type)} (project ${String(project)}, seq ${String(seq)})`,
    {
      type,
      project,
      seq,
    },
  );
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
    bytes_sha256: e.bytes_sha256 ?? null,
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
  const chain = {
    project: e.project,
    level: e.level,
    run_id: e.run_id,
    sha256: e.sha256,
    seq: e.seq,
  };
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
        // parents and lines keep their logged order here; edge rows are a set.
        meta: canonicalJson({ lines: e.lines, parents: e.parents, tokens: e.tokens }),
      },
    },
    { statement: 'supersedeMemoryChain', params: chain },
    { statement: 'setMemoryHead', params: chain },
    { statement: 'reinstateMemory', params: chain },
    ...e.parents.map((parent): PlannedWrite => ({
      statement: 'insertEdge',
      params: {
        project: e.project,
        child_level: e.level,
        child_sha: e.sha256,
        parent_sha: parent,
        preferred_level: preferred,
      },
    })),
    ...memoryLines(e).flatMap((line) => lineWrites(e, line)),
    { statement: 'refreshLines', params: { project: e.project, sha256: e.sha256 } },
    ...memoryLines(e).flatMap((line) =>
      (line.signatures ?? []).map((sig): PlannedWrite => ({
        statement: 'foldSignature',
        params: {
          project: e.project,
          sig_sha: sig.sig_sha,
          signature: sig.signature,
          tool: sig.tool,
          level: e.level,
          line_sha: line.sha256,
          memory_sha: e.sha256,
          ts: e.ts,
        },
      })),
    ),
  ];
}

/**
 * A line of a memory as its own node (kind 'line', the memory's level), with an edge to the
 * memory and one to each sha it rests on. The node's first occurrence wins (its run, t and
 * seq are the first memory's that held it); the edges are a union over every memory holding it.
 */
function lineWrites(
  e: EventOf<'memory'>,
  line: { text: string; sha256: string; parents: string[] },
): PlannedWrite[] {
  const edge = { project: e.project, level: e.level, line_sha: line.sha256 };
  return [
    {
      statement: 'insertNode',
      params: {
        id: lineNodeId(e.project, e.level, line.sha256),
        project: e.project,
        level: e.level,
        kind: 'line',
        run_id: e.run_id,
        t: e.t,
        source: null,
        text: line.text,
        sha256: line.sha256,
        seq: e.seq,
        ts: e.ts,
        meta: canonicalJson({}),
      },
    },
    { statement: 'insertLineEdge', params: { ...edge, kind: 'memory', target_sha: e.sha256 } },
    ...line.parents.map((parent): PlannedWrite => ({
      statement: 'insertLineEdge',
      params: { ...edge, kind: 'parent', target_sha: parent },
    })),
    // A line superseded earlier: this memory holds its successor too (statements.ts).
    {
      statement: 'holdSuccessors',
      params: { project: e.project, level: e.level, line_sha: line.sha256, memory_sha: e.sha256 },
    },
  ];
}

function tombstone(e: EventOf<'tombstone'>): PlannedWrite[] {
  return [
    {
      statement: 'insertTombstone',
      params: { project: e.project, target: e.target, reason: e.reason, seq: e.seq, ts: e.ts },
    },
    { statement: 'applyTombstone', params: { project: e.project, target: e.target } },
    // A tombstoned memory retires the lines it alone held live.
    { statement: 'refreshLines', params: { project: e.project, sha256: e.target } },
  ];
}

/**
 * A forgotten target leaves the item store's read paths: each line it refuses gets a
 * forgotten_line row (what line-level reads join), and a forgotten whole memory is marked
 * deleted like a tombstoned node, which drops it from FTS recall and the counts. The line's
 * node and every memory row holding it keep no copy of its text.
 */
function forgotten(e: EventOf<'forgotten'>): PlannedWrite[] {
  const lines = e.refuses.flatMap((line): PlannedWrite[] => [
    {
      statement: 'forgetLine',
      params: { project: e.project, sha256: line.sha256, target: e.target, seq: e.seq },
    },
    { statement: 'forgetLineNode', params: { project: e.project, sha256: line.sha256, ts: e.ts } },
  ]);
  lines.push({
    statement: 'forgetMemoryLines',
    params: { project: e.project, shas: canonicalJson(e.refuses.map((line) => line.sha256)) },
  });
  if (e.target_kind !== 'memory') return lines;
  return [
    ...lines,
    { statement: 'forgetMemory', params: { project: e.project, target: e.target, ts: e.ts } },
  ];
}

/**
 * The old points to the new: a superseded_line row, and on a whole memory's row superseded_by,
 * which every read path excludes. A superseded line's new text becomes a line of its own at
 * each level the old line has (successorWrites), so the correction stays in recall.
 */
function superseded(e: EventOf<'superseded'>): PlannedWrite[] {
  const line: PlannedWrite = {
    statement: 'supersedeLine',
    params: {
      project: e.project,
      sha256: e.target,
      target_kind: e.target_kind,
      after_sha256: e.after_sha256,
      seq: e.seq,
      actor: e.writer.principal ?? null,
      reason: e.reason,
    },
  };
  if (e.target_kind !== 'memory')
    return [
      line,
      ...(['L1', 'L2'] as const).flatMap((level) => successorWrites(e, level)),
      {
        statement: 'supersedeLineNode',
        params: {
          project: e.project,
          sha256: e.target,
          after_sha256: e.after_sha256,
          seq: e.seq,
        },
      },
      ...successorConfirmation(e),
    ];
  // Trigger: a whole memory superseded (its lines' successors included). Why: its lines stayed
  // live here while pgvector and the vault retired them with the memory (the agreement property,
  // once its logs superseded whole memories). Outcome: they are judged again, as after a tombstone.
  return [
    line,
    {
      statement: 'supersedeMemory',
      params: { project: e.project, target: e.target, after_sha256: e.after_sha256 },
    },
    { statement: 'refreshLines', params: { project: e.project, sha256: e.target } },
  ];
}

/**
 * The replacement is confirmed against the spans the old line cites as they read when it was
 * written (the event's `cited`), so a supersede of a stale line is not stale from birth. Only
 * a successor line this event made is confirmed (the statements check its node's seq): a later
 * supersession of the same line (refused now, but in old logs) makes none, and a replacement
 * that repeats an existing line's text leaves that line's confirmation as it was.
 */
function successorConfirmation(e: EventOf<'superseded'>): PlannedWrite[] {
  if (e.cited === undefined) return [];
  return [
    {
      statement: 'clearSuccessorConfirmation',
      params: { project: e.project, line_sha: e.after_sha256, seq: e.seq },
    },
    ...e.cited.map((c) => ({
      statement: 'confirmSuccessorLine' as const,
      params: {
        project: e.project,
        line_sha: e.after_sha256,
        chunk_sha: c.chunk,
        digest: c.digest,
        seq: e.seq,
      },
    })),
  ];
}

/**
 * The successor line at one level, if the old line is there: written before the old line's node
 * is marked superseded, so it starts as live as the old line was. Its meta names the
 * correction (seq, actor, reason, the line it supersedes), which a query shows on the hit.
 */
function successorWrites(e: EventOf<'superseded'>, level: 'L1' | 'L2'): PlannedWrite[] {
  const at = { project: e.project, level, sha256: e.target, after_sha256: e.after_sha256 };
  const corrected_by = {
    seq: e.seq,
    actor: e.writer.principal ?? null,
    reason: e.reason,
    supersedes: e.target,
  };
  return [
    {
      statement: 'insertSuccessorLine',
      params: {
        ...at,
        id: lineNodeId(e.project, level, e.after_sha256),
        text: e.text,
        seq: e.seq,
        ts: e.ts,
        meta: canonicalJson({ corrected_by }),
      },
    },
    { statement: 'copySuccessorEdges', params: { ...at, seq: e.seq } },
  ];
}

/**
 * A line a person wrote in the vault: a line node of its own in its note (query id), held by no
 * memory, so a new memory leaves it live and only a correction of its own retires it. Its meta
 * names the capture (seq, actor, reason), which a query shows on the hit in place of chunks.
 */
function addedLine(e: EventOf<'line_added'>): AddedLineParams {
  const added_by = { seq: e.seq, actor: e.writer.principal ?? null, reason: e.reason };
  return {
    id: lineNodeId(e.project, e.level, e.sha256),
    project: e.project,
    level: e.level,
    query_id: e.query_id,
    text: e.text,
    sha256: e.sha256,
    seq: e.seq,
    ts: e.ts,
    meta: canonicalJson({ added_by }),
  };
}

type IdentityEvent = EventOf<
  | 'principal_added'
  | 'project_added'
  | 'member_added'
  | 'member_removed'
  | 'token_minted'
  | 'token_revoked'
>;

/**
 * Trigger: an identity event in a project's own log (only a hand-made `mem log append` can put
 * one there). Why: authority is granted by `_system` alone; the log is append-only, so refusing
 * would make every later rebuild fail. Outcome: it projects nothing, only the position advances.
 */
function identity(event: IdentityEvent): PlannedWrite[] {
  if (event.project !== SYSTEM_PROJECT) return [];
  const at = { seq: event.seq, ts: event.ts };
  switch (event.type) {
    case 'principal_added':
      return [{ statement: 'addPrincipal', params: { name: event.name, ...at } }];
    case 'project_added':
      return [{ statement: 'addProject', params: { name: event.name, ...at } }];
    case 'member_added':
      return [
        {
          statement: 'addMember',
          params: { project: event.project_name, principal: event.principal, ...at },
        },
      ];
    case 'member_removed':
      return [
        {
          statement: 'removeMember',
          params: { project: event.project_name, principal: event.principal },
        },
      ];
    case 'token_minted':
      return [
        {
          statement: 'insertToken',
          params: {
            token_id: event.token_id,
            label: event.label,
            principal: event.principal,
            projects: canonicalJson(event.projects),
            capabilities: canonicalJson(event.capabilities),
            expires_at: event.expires_at,
            secret_sha256: event.secret_sha256,
            ...at,
          },
        },
      ];
    case 'token_revoked':
      return [
        {
          statement: 'revokeToken',
          params: { token_id: event.token_id, reason: event.reason ?? null, ...at },
        },
      ];
  }
}

function acceptIngest(e: EventOf<'ingest_accepted'>) {
  return {
    project: e.project,
    job_id: e.job_id,
    ingest_id: e.ingest_id,
    source: e.source,
    format: e.format,
    records: e.records.length,
    principal: e.writer.principal ?? null,
    token_label: e.writer.token ?? null,
    seq: e.seq,
    ts: e.ts,
  };
}

function finishIngest(e: EventOf<'ingest_finished'>) {
  return {
    project: e.project,
    job_id: e.job_id,
    status: e.status,
    chunks: e.chunks,
    appended: e.appended,
    skipped: e.skipped ?? null,
    error: e.error === undefined ? null : canonicalJson(e.error),
    seq: e.seq,
    ts: e.ts,
  };
}

function bit(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}
