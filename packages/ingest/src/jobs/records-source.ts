import { RECORD_ROLES, type SourceRecord } from '@mem/chunk';
import type { SourceStats, TranscriptKind, TranscriptSource } from '@mem/sources';
import type { IngestRecord } from './accepted-records.js';

/**
 * A record source over the records an `ingest_accepted` event carries: already normalised and
 * scrubbed at acceptance, so this only replays them, in order, with their provenance.
 */
export function acceptedRecordsSource(
  records: readonly IngestRecord[],
  kind: TranscriptKind,
): TranscriptSource {
  let yielded: IngestRecord[] = [];
  return {
    kind,
    stats: () => statsOf(yielded),
    async *[Symbol.asyncIterator](): AsyncGenerator<SourceRecord> {
      yielded = [];
      for (const record of records) {
        yielded.push(record);
        yield {
          role: record.role,
          text: record.text,
          timestamp: record.timestamp,
          provenance: {
            source: record.source,
            ...(record.line !== undefined ? { line: record.line } : {}),
            ...(record.entry !== undefined ? { entry: record.entry } : {}),
          },
          cwd: record.cwd ?? null,
        };
      }
    },
  };
}

function statsOf(records: readonly IngestRecord[]): SourceStats {
  const byRole = Object.fromEntries(
    [...RECORD_ROLES].sort().map((role) => [role, 0]),
  ) as SourceStats['records'];
  for (const record of records) byRole[record.role] += 1;
  return {
    bytes: records.reduce((n, r) => n + Buffer.byteLength(r.text), 0),
    duplicateUuids: 0,
    files: 0,
    filesSkipped: {},
    glued: { lines: 0, objects: 0 },
    invalidJson: { count: 0, samples: [] },
    lines: records.length,
    media: { bytes: 0, documents: 0, images: 0 },
    pasted: {},
    records: byRole,
    retyped: {},
    secrets: {},
    skipped: {},
    toolTextCut: { chars: 0, count: 0 },
    truncatedTails: { count: 0, samples: [] },
    unknown: { count: 0, top: [] },
  };
}
