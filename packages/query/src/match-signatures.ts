import { logSignatures } from '@mem/core';
import type { ItemStore } from '@mem/projector-sqlite';
import { citationsOfPage, type CitationMode } from './citations.js';
import type { Citation } from './result.js';

/** A line seen before with a signature of the log: the exact tier's hit. */
export interface SignatureSighting {
  project: string;
  level: 'L1' | 'L2';
  /** The line the latest occurrence was seen with. */
  line: { sha256: string; text: string };
  memory_sha: string;
  tool: string;
  seen_count: number;
  first_seen: string;
  last_seen: string;
  citations: Citation[];
}

/** One signature of the log and where it was seen. */
export interface SignatureMatch {
  sig_sha: string;
  signature: string;
  /** The log's line it was read from. */
  raw: string;
  seen: SignatureSighting[];
}

export interface MatchSignaturesRequest {
  /** A raw failing log: a CI log, a pasted error, a tool's output. */
  text: string;
  /** Where to look (already narrowed to the caller's reach): signatures federate across projects. */
  projects: readonly string[];
  citations?: CitationMode;
}

/**
 * The signatures of a raw failing log, each with the lines seen with it before, in the given
 * projects: the exact-match tier of tool context ("this failure happened here before").
 * A line a tombstone deleted is not shown, nor one a person superseded by another line; a line
 * that aged out of its bounded memory still is: it stays true, only its memory moved on.
 */
export function matchSignatures(
  items: ItemStore,
  request: MatchSignaturesRequest,
): SignatureMatch[] {
  const signatures = logSignatures(request.text);
  const rows = items.failureSignatures(
    signatures.map((s) => s.sigSha),
    request.projects,
  );
  // Every sighting's line in one statement, and the shown lines' citations in one more: a
  // common failure is seen on many lines.
  const lines = items.nodesAt(
    rows.map((row) => ({ project: row.project, level: row.level, sha256: row.line_sha })),
  );
  const shown = rows.flatMap((row, i) => {
    const line = lines[i];
    if (!line || line.deleted_at !== null) return [];
    if (
      line.superseded_by !== null &&
      !items.node(row.project, line.superseded_by, row.level, 'memory')
    )
      return [];
    return [{ row, line }];
  });
  const citations = citationsOfPage(
    items,
    shown.map((s) => s.line),
    request.citations ?? 'excerpt',
  );
  const sightings = shown.map(({ row, line }, i) => ({
    sig_sha: row.sig_sha,
    seen: {
      project: row.project,
      level: row.level,
      line: { sha256: line.sha256, text: line.text },
      memory_sha: row.memory_sha,
      tool: row.tool,
      seen_count: row.seen_count,
      first_seen: row.first_seen,
      last_seen: row.last_seen,
      citations: citations[i]!,
    } satisfies SignatureSighting,
  }));
  return signatures.map((sig) => ({
    sig_sha: sig.sigSha,
    signature: sig.signature,
    raw: sig.raw,
    seen: sightings.filter((s) => s.sig_sha === sig.sigSha).map((s) => s.seen),
  }));
}
