import { MemError, memoryLines, type EventOf, type EventType, type LogEvent } from '@mem/core';
import { ITEM_VECTOR_HANDLES, planItemEvent } from './plan-items.js';
import type { NodeParams, PlannedWrite } from './planned-write.js';

/**
 * The event types that change rows here. chunk, gate, run_end, recovery, administration, ingest
 * bookkeeping and projection settings (they shape the vault only) hold nothing to recall, nor do
 * an item's status, relations and pins (the query reads those from the item store): the
 * engine hands the projector none of them, they only advance its position.
 */
export const PGVECTOR_HANDLES = [
  'run',
  'evidence',
  'memory',
  'reference',
  'tombstone',
  'forgotten',
  'superseded',
  'line_added',
  ...ITEM_VECTOR_HANDLES,
] as const satisfies readonly EventType[];

/** An event the pgvector projection handles. */
export type PgvectorEvent = EventOf<(typeof PGVECTOR_HANDLES)[number]>;

function handled(event: LogEvent): event is PgvectorEvent {
  return (PGVECTOR_HANDLES as readonly string[]).includes(event.type);
}

/**
 * The pure half of the projector: the writes one logged event plans, in order. No I/O, no
 * clock, no embedding (the shell embeds the texts `vectorTexts` names for the nodes a batch
 * really inserts). The switch is exhaustive over PGVECTOR_HANDLES: a type added there does not
 * compile without its writes. Anything else throws UNKNOWN_EVENT_TYPE (it can only arrive by
 * bypassing the engine's routing, and skipping it would hide a hole).
 */
export function planEvent(event: LogEvent): PlannedWrite[] {
  if (!handled(event)) return unknownType(event as never);
  switch (event.type) {
    case 'run':
      return [
        {
          statement: 'insertRun',
          params: {
            project: event.project,
            run_id: event.run_id,
            level: event.level,
            query_id: event.query_id,
          },
        },
      ];
    case 'evidence':
      return [
        {
          statement: 'insertNode',
          params: node(event, 'evidence', event.run_id, event.t, event.source, null),
        },
      ];
    case 'memory':
      return memory(event);
    case 'reference':
      return [
        {
          statement: 'insertNode',
          params: node(event, 'reference', null, null, event.source, null),
        },
      ];
    case 'tombstone':
      return [
        {
          statement: 'applyTombstone',
          params: {
            project: event.project,
            target: event.target,
            reason: event.reason,
            seq: event.seq,
            ts: event.ts,
          },
        },
        // A tombstoned memory retires the lines it alone held live; a tombstoned line leaves.
        { statement: 'refreshLines', params: { project: event.project, shas: [event.target] } },
      ];
    case 'forgotten':
      return [
        {
          statement: 'forget',
          params: {
            project: event.project,
            target: event.target,
            target_kind: event.target_kind,
            lines: event.refuses.map((line) => line.sha256),
            ts: event.ts,
          },
        },
      ];
    case 'superseded':
      return superseded(event);
    case 'line_added':
      return [
        {
          statement: 'insertAddedLine',
          params: {
            project: event.project,
            level: event.level,
            sha256: event.sha256,
            text: event.text,
            seq: event.seq,
          },
        },
      ];
    case 'item_added':
    case 'item_updated':
    case 'item_attention_set':
    case 'item_deleted':
      return planItemEvent(event);
    default:
      return unknownType(event);
  }
}

/**
 * The old points to the new; a superseded line's new text becomes a line of its own (its
 * vectors: the text and the old line's symptom), so a correction stays in recall.
 */
function superseded(e: EventOf<'superseded'>): PlannedWrite[] {
  const supersede: PlannedWrite = {
    statement: 'supersede',
    params: {
      project: e.project,
      target: e.target,
      target_kind: e.target_kind,
      after_sha256: e.after_sha256,
    },
  };
  if (e.target_kind !== 'line') return [supersede];
  return [
    supersede,
    {
      statement: 'insertSuccessorLines',
      params: {
        project: e.project,
        target: e.target,
        after_sha256: e.after_sha256,
        text: e.text,
        seq: e.seq,
      },
    },
  ];
}

function node(
  e: EventOf<'evidence' | 'memory' | 'reference'>,
  kind: NodeParams['kind'],
  runId: string | null,
  t: number | null,
  source: string | null,
  symptom: string | null,
): NodeParams {
  return {
    project: e.project,
    level: e.level,
    sha256: e.sha256,
    kind,
    run_id: runId,
    t,
    source,
    text: e.text,
    symptom,
    seq: e.seq,
    ts: e.ts,
  };
}

function memory(e: EventOf<'memory'>): PlannedWrite[] {
  const symptom = e.symptom ?? null;
  return [
    { statement: 'insertNode', params: node(e, 'memory', e.run_id, e.t, null, symptom) },
    // A memory replaces the previous head of its chain (same project, level and query); a text that comes back is the head again.
    {
      statement: 'advanceChain',
      params: {
        project: e.project,
        level: e.level,
        run_id: e.run_id,
        sha256: e.sha256,
        seq: e.seq,
      },
    },
    {
      statement: 'insertEdges',
      params: {
        project: e.project,
        child_level: e.level,
        child_sha: e.sha256,
        parents: [...new Set(e.parents)],
        preferred_level: e.level === 'L1' ? 'L0' : 'L1',
      },
    },
    {
      statement: 'insertLines',
      params: {
        project: e.project,
        level: e.level,
        memory_sha: e.sha256,
        // A line repeated in one memory is one line (same sha, same text), at its first place.
        lines: [...new Map(memoryLines(e).map((l) => [l.sha256, l.text]))].map(
          ([sha256, text]) => ({ sha256, text }),
        ),
        symptom,
        seq: e.seq,
      },
    },
    {
      statement: 'holdSuccessors',
      params: {
        project: e.project,
        level: e.level,
        memory_sha: e.sha256,
        shas: [...new Set(memoryLines(e).map((l) => l.sha256))],
      },
    },
    // After the chain moved: the new head's lines are live, those only the old head held are not.
    { statement: 'refreshLines', params: { project: e.project, shas: [e.sha256] } },
    // The failures the memory's new lines were drawn from, as the event names them: the node is
    // the memory, the raw line the memory line that was seen with the failure.
    ...memoryLines(e).flatMap((line) =>
      (line.signatures ?? []).map((sig): PlannedWrite => ({
        statement: 'foldSignature',
        params: {
          project: e.project,
          sig_sha: sig.sig_sha,
          signature: sig.signature,
          tool: sig.tool,
          raw: line.text,
          node_level: e.level,
          node_sha: e.sha256,
          ts: e.ts,
        },
      })),
    ),
  ];
}

function unknownType(event: never): never {
  const { type, project, seq } = event as { type?: unknown; project?: unknown; seq?: unknown };
  throw new MemError(
    'UNKNOWN_EVENT_TYPE',
    `projector pgvector cannot apply event type ${JSON.stringify(type)} (project ${String(project)}, seq ${String(seq)})`,
    {
      type,
      project,
      seq,
    },
  );
}
