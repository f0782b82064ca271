import { z } from 'zod';
import { errorField, sourceField } from './fields.js';

/*
 * Ingest jobs accepted over HTTP or MCP (seed 001 "Distributed behavior"). Acceptance is an
 * event, so a job survives a restart; its records are stored already normalised and scrubbed
 * (the source adapters ran at acceptance), so no raw transcript and no secret reaches the log.
 * Completion is an event too: "done" must survive a restart and a dropped `.mem/`, because a
 * finished job's `ingest_id` answers 409. Progress while running is derived, in-process state.
 */

/** A job id: `ingest-<uuid>`. */
export const jobIdField = z
  .string()
  .regex(/^ingest-[0-9a-f-]{36}$/, 'expected a job id: ingest-<uuid>');

/** The caller's idempotency key of a batch (seed: "sha256-of-batch"); any 1-128 printable characters. */
export const ingestIdField = z
  .string()
  .regex(
    /^[\x21-\x7e]{1,128}$/,
    'expected an ingest id: 1-128 printable ASCII characters without spaces',
  );

/** One normalised, scrubbed record, as the chunker reads it. */
export const ingestRecordField = z.strictObject({
  role: z.enum(['user', 'assistant', 'tool_call', 'tool_result', 'system', 'summary']),
  text: z.string(),
  timestamp: z.string().nullable(),
  source: sourceField,
  line: z.int().min(1).optional(),
  entry: z.string().optional(),
  cwd: z.string().optional(),
});

export const ingestAcceptedShape = {
  job_id: jobIdField,
  ingest_id: ingestIdField,
  /** Who sent it, as the caller named it (`agent:<uuid>`, `ci:nightly`). */
  source: sourceField,
  /** What was posted: explicit records, or a transcript in one of the adapters' formats. */
  format: z.enum(['records', 'claude', 'pi', 'codex']),
  records: z.array(ingestRecordField).min(1, 'expected at least one record'),
};

export const ingestFinishedShape = {
  job_id: jobIdField,
  status: z.enum(['done', 'failed']),
  chunks: z.int().min(0),
  appended: z.int().min(0),
  /** Records left out because an earlier job under the same source ingested them (absent: none). */
  skipped: z.int().min(1).optional(),
  error: errorField.optional(),
};
