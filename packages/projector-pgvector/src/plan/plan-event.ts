import { MemError, type EventOf, type LogEvent } from '@mem/core';
import { failureSignatures } from './failure-signature.js';
import type { NodeParams, PlannedWrite } from './planned-write.js';

/**
 * The pure half of the projector: the writes one logged event plans, in order. No I/O, no
 * clock, no embedding (the shell embeds the texts `vectorTexts` names for the nodes a batch
 * really inserts). chunk, gate, run_end, recovery, administration and ingest bookkeeping change
 * nothing here: only the position advances. The switch is exhaustive on purpose: a new event
 * type does not compile until someone decides what it means for this projection. An unknown type throws UNKNOWN_EVENT_TYPE (it can only arrive by bypassing the log
 * reader's validation, and skipping it would hide a hole).
 */
export function planEvent(event: LogEvent): PlannedWrite[] {
  switch (event.type) {
    case 'run':
      return [{ statement: 'insertRun', params: { project: event.project, run_id: event.run_id, level: event.level, query_id: event.query_id } }];
    case 'evidence':
      return [{ statement: 'insertNode', params: node(event, 'evidence', event.run_id, event.t, event.source, null) }];
    case 'memory':
      return memory(event);
    case 'reference':
      return [{ statement: 'insertNode', params: node(event, 'reference', null, null, event.source, null) }];
    case 'tombstone':
      return [{ statement: 'applyTombstone', params: { project: event.project, target: event.target, reason: event.reason, seq: event.seq, ts: event.ts } }];
    case 'chunk':
    case 'gate':
    case 'run_end':
    case 'recovery':
    // Administration and ingest bookkeeping hold nothing to recall.
    case 'principal_added':
    case 'project_added':
    case 'member_added':
    case 'member_removed':
    case 'token_minted':
    case 'token_revoked':
    case 'ingest_accepted':
    case 'ingest_finished':
    // Projection settings shape the vault only.
    case 'projection_settings_set':
      return [];
    default:
      return unknownType(event);
  }
}

function node(e: EventOf<'evidence' | 'memory' | 'reference'>, kind: NodeParams['kind'], runId: string | null, t: number | null, source: string | null, symptom: string | null): NodeParams {
  return { project: e.project, level: e.level, sha256: e.sha256, kind, run_id: runId, t, source, text: e.text, symptom, seq: e.seq, ts: e.ts };
}

function memory(e: EventOf<'memory'>): PlannedWrite[] {
  const symptom = e.symptom ?? null;
  return [
    { statement: 'insertNode', params: node(e, 'memory', e.run_id, e.t, null, symptom) },
    // A memory replaces the previous head of its chain (same project, level and query); a text that comes back is the head again.
    { statement: 'advanceChain', params: { project: e.project, level: e.level, run_id: e.run_id, sha256: e.sha256, seq: e.seq } },
    {
      statement: 'insertEdges',
      params: { project: e.project, child_level: e.level, child_sha: e.sha256, parents: [...new Set(e.parents)], preferred_level: e.level === 'L1' ? 'L0' : 'L1' },
    },
    ...(symptom === null ? [] : failureSignatures(symptom)).map(
      (sig): PlannedWrite => ({
        statement: 'foldSignature',
        params: { project: e.project, sig_sha: sig.sigSha, signature: sig.signature, tool: sig.tool, raw: sig.raw, node_level: e.level, node_sha: e.sha256, ts: e.ts },
      }),
    ),
  ];
}

function unknownType(event: never): never {
  const { type, project, seq } = event as { type?: unknown; project?: unknown; seq?: unknown };
  throw new MemError('UNKNOWN_EVENT_TYPE', `projector pgvector cannot apply event type ${JSON.stringify(type)} (project ${String(project)}, seq ${String(seq)})`, {
    type,
    project,
    seq,
  });
}
