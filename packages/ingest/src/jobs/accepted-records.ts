import type { z } from 'zod';
import { MemError, type ingestRecordField } from '@mem/core';
import { scrubSecrets, transcriptFromText } from '@mem/sources';
import { MAX_RECORDS } from '../definitions.js';

export { MAX_RECORDS } from '../definitions.js';

/** One normalised, scrubbed record as an `ingest_accepted` event stores it. */
export type IngestRecord = z.infer<typeof ingestRecordField>;

/** A record as a client posts it. */
export interface PostedRecord {
  role: IngestRecord['role'];
  text: string;
  timestamp?: string | undefined;
}

/**
 * Records as posted: secrets scrubbed (the same scrubber the transcript adapters run), the
 * caller's `source` as provenance. Nothing unscrubbed is ever handed to the log.
 */
export function recordsFromPosted(posted: readonly PostedRecord[], source: string): IngestRecord[] {
  return posted.map((record) => ({
    role: record.role,
    text: scrubSecrets(record.text).text,
    timestamp: record.timestamp ?? null,
    source,
  }));
}

/**
 * A raw Claude Code, pi or Codex CLI transcript, read by the same adapter code as files (secrets scrubbed,
 * media dropped, tool text capped), each record under the caller's `source` label: the
 * adapter's own URI (`pi:sha256:…`) names the posted text, which tells a reader nothing. The
 * record's line and entry id stay: they locate it inside the transcript. INVALID_INPUT naming
 * `transcript` when not one record could be read from it.
 */
export async function recordsFromTranscript(
  transcript: string,
  format: 'claude' | 'pi' | 'codex',
  name: string,
  label: string,
): Promise<IngestRecord[]> {
  const source = transcriptFromText(transcript, format, { name });
  const records: IngestRecord[] = [];
  for await (const record of source) {
    if (records.length >= MAX_RECORDS) {
      throw new MemError(
        'INVALID_INPUT',
        `transcript: more than ${MAX_RECORDS} records; split it into several ingests`,
        { field: 'transcript', expected: `at most ${MAX_RECORDS} records` },
      );
    }
    records.push({
      role: record.role,
      text: record.text,
      timestamp: record.timestamp,
      source: label,
      ...(record.provenance.line !== undefined ? { line: record.provenance.line } : {}),
      ...(record.provenance.entry !== undefined ? { entry: record.provenance.entry } : {}),
      ...(record.cwd !== null ? { cwd: record.cwd } : {}),
    });
  }
  if (records.length === 0) {
    const stats = source.stats();
    throw new MemError(
      'INVALID_INPUT',
      `transcript: no ${format} record could be read (${stats.lines} lines, ${stats.invalidJson.count} not JSON); expected a ${format === 'claude' ? 'Claude Code' : 'pi'} session as JSONL`,
      { field: 'transcript', expected: `a ${format} transcript (JSONL)` },
    );
  }
  return records;
}
