import { initialStatus, itemId, memoryLines, type EventOf, type LogEvent } from '@mem/core';
import type { CitedChunk } from '@mem/ingest';
import type { LiveLine } from './finding.js';

/** One finding as the log states it: opened, and decided once a person has. */
export interface QueuedFinding {
  opened: EventOf<'review_opened'>;
  decided?: EventOf<'review_decided'>;
}

/**
 * One project's review queue folded from its log: every finding ever opened (by id), the
 * `resurfaced` events a scan turns into findings, and the live lines the other detectors read —
 * every line of each note's newest memory (a note is one query's L1 chain, or the L2 synthesis:
 * an older version of a memory is history, not a claim in force) or of a supersession, that no
 * `forgotten` covers and nothing superseded.
 */
export interface ReviewQueue {
  findings: Map<string, QueuedFinding>;
  resurfaced: EventOf<'resurfaced'>[];
  liveLines: LiveLine[];
  /** Per evidence sha, the chunk it is as ingest read it (source, span, run's chunk size). */
  evidence: Map<string, CitedChunk>;
  /** Every curated item by id: its type, its anchors now, whether it is deleted. */
  items: Map<string, QueuedItem>;
}

/** A curated item as the review queue needs it: which knowledge hangs on which anchors, what it says now. */
export interface QueuedItem {
  id: string;
  type: string;
  anchors: Set<string>;
  deleted: boolean;
  /** Its summary now (the last update's), its status (null for knowledge) and attention tier. */
  summary: string;
  status: string | null;
  attention: string;
  /** The seq of its item_added event: which of two is newer. */
  seq: number;
  /** The items it links to now. */
  links: Set<string>;
}

export function foldQueue(events: Iterable<LogEvent>): ReviewQueue {
  const findings = new Map<string, QueuedFinding>();
  const resurfaced: EventOf<'resurfaced'>[] = [];
  const lines = new Map<
    string,
    { text: string; seq: number; memory?: string; parents?: string[]; note?: string }
  >();
  const firstSeq = new Map<string, number>();
  const heads = new Map<string, EventOf<'memory'>>();
  const gone = new Set<string>();
  const notes = new Map<string, string>();
  const chunkTokens = new Map<string, number>();
  const spans = new Map<string, { span: [number, number]; bytesSha256?: string }>();
  const evidence = new Map<string, CitedChunk>();
  const items = new Map<string, QueuedItem>();
  for (const event of events) {
    switch (event.type) {
      case 'item_added': {
        const id = itemId(event.project, event.seq);
        items.set(id, {
          id,
          type: event.item_type,
          anchors: new Set(event.anchors ?? []),
          deleted: false,
          summary: event.summary,
          status: event.status ?? initialStatus(event.item_type),
          attention: 'active',
          seq: event.seq,
          links: new Set<string>(),
        });
        break;
      }
      case 'item_updated': {
        const item = items.get(event.item);
        if (item && event.summary !== undefined) item.summary = event.summary;
        if (item && event.status !== undefined) item.status = event.status;
        break;
      }
      case 'item_resolved': {
        const item = items.get(event.item);
        if (item) item.status = event.status;
        break;
      }
      case 'item_attention_set': {
        const item = items.get(event.item);
        if (item) item.attention = event.attention;
        break;
      }
      case 'line_added':
        // A line a person wrote into a note: a live claim like the extractor's lines, in no
        // memory, so a scan compares it with every other line (its note's included).
        if (!lines.has(event.sha256)) lines.set(event.sha256, { text: event.text, seq: event.seq });
        break;
      case 'item_related':
        if (event.relation === 'anchor') items.get(event.item)?.anchors.add(event.target);
        if (event.relation === 'link') items.get(event.item)?.links.add(event.target);
        break;
      case 'item_unrelated':
        if (event.relation === 'anchor') items.get(event.item)?.anchors.delete(event.target);
        if (event.relation === 'link') items.get(event.item)?.links.delete(event.target);
        break;
      case 'item_deleted': {
        const item = items.get(event.item);
        if (item) item.deleted = true;
        break;
      }
      case 'run':
        chunkTokens.set(event.run_id, event.chunk_tokens);
        notes.set(event.run_id, `${event.level}:${event.query_id ?? 'synthesis'}`);
        break;
      case 'chunk':
        if (event.level === 'L0' && event.span !== null)
          spans.set(`${event.run_id}:${event.t}`, {
            span: event.span,
            ...(event.bytes_sha256 !== undefined ? { bytesSha256: event.bytes_sha256 } : {}),
          });
        break;
      case 'evidence': {
        const chunk = spans.get(`${event.run_id}:${event.t}`);
        const size = chunkTokens.get(event.run_id);
        if (chunk && size !== undefined && !evidence.has(event.sha256))
          evidence.set(event.sha256, {
            source: event.source,
            start: chunk.span[0],
            end: chunk.span[1],
            sha256: event.sha256,
            ...(chunk.bytesSha256 !== undefined ? { bytesSha256: chunk.bytesSha256 } : {}),
            chunkTokens: size,
          });
        break;
      }
      case 'memory':
        for (const line of event.lines)
          if (!firstSeq.has(line.sha256)) firstSeq.set(line.sha256, event.seq);
        // A memory without its run in the log (appended by hand) is a note of its own run.
        heads.set(notes.get(event.run_id) ?? `${event.level}:run:${event.run_id}`, event);
        break;
      case 'superseded':
        gone.add(event.target);
        if (!lines.has(event.after_sha256))
          lines.set(event.after_sha256, { text: event.text, seq: event.seq });
        break;
      case 'forgotten':
        gone.add(event.target);
        for (const line of event.refuses) gone.add(line.sha256);
        break;
      case 'resurfaced':
        resurfaced.push(event);
        // The forced write is live again, whatever tombstone refused it.
        gone.delete(event.line_sha256);
        break;
      case 'review_opened':
        if (!findings.has(event.id)) findings.set(event.id, { opened: event });
        break;
      case 'review_decided': {
        const finding = findings.get(event.id);
        if (finding && !finding.decided) finding.decided = event;
        break;
      }
      default:
        break;
    }
  }
  for (const [note, head] of heads)
    for (const line of memoryLines(head))
      if (!lines.has(line.sha256))
        lines.set(line.sha256, {
          text: line.text,
          seq: firstSeq.get(line.sha256) ?? head.seq,
          memory: head.sha256,
          parents: line.parents,
          note,
        });
  const liveLines = [...lines]
    .filter(
      ([sha, line]) => !gone.has(sha) && !(line.memory !== undefined && gone.has(line.memory)),
    )
    .map(([sha256, line]) => ({
      sha256,
      text: line.text,
      seq: line.seq,
      ...(line.parents ? { parents: line.parents } : {}),
      ...(line.memory !== undefined ? { memory: line.memory } : {}),
      ...(line.note !== undefined ? { note: line.note } : {}),
    }))
    .sort((a, b) => a.sha256.localeCompare(b.sha256));
  return { findings, resurfaced, liveLines, evidence, items };
}
