import { z } from 'zod';
import {
  MemError,
  hasErrorCode,
  ingestIdField,
  jobIdField,
  scrubSecrets,
  sha256Hex,
} from '@mem/core';
import { MAX_RECORDS } from '@mem/ingest/definitions';
import type { IngestJobRow } from '@mem/projector-sqlite';
import { canReach, requireReach, writerOf, type Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import { loadIngest, type Ingest } from '../ingest-module.js';
import { defineOperation } from '../operation.js';
import { errorView, projectInput } from './schemas.js';

const TOOL = 'ingest';

const submitInput = z
  .strictObject({
    project: projectInput,
    source: z
      .string()
      .regex(
        /^[\x21-\x7e]{1,200}$/,
        'expected a source such as "agent:<uuid>": 1-200 printable ASCII characters without spaces',
      ),
    ingest_id: ingestIdField.optional(),
    records: z
      .array(
        z.strictObject({
          role: z.enum(['user', 'assistant', 'tool_call', 'tool_result', 'system', 'summary']),
          text: z.string().min(1).max(1_000_000),
          timestamp: z.iso.datetime({ offset: true }).optional(),
        }),
      )
      .min(1)
      .max(MAX_RECORDS)
      .optional(),
    transcript: z.string().min(1).optional(),
    format: z.enum(['claude', 'pi', 'codex']).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.records === undefined) === (value.transcript === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['records'],
        message:
          'expected exactly one of "records" (an array of {role, text, timestamp?}) or "transcript" (a Claude Code, pi or Codex CLI JSONL string)',
      });
    }
    if (value.format !== undefined && value.transcript === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['format'],
        message: 'expected "format" only with "transcript"',
      });
    }
  });

const jobOut = z.object({
  job_id: z.string(),
  ingest_id: z.string(),
  project: z.string(),
  status: z.enum(['queued', 'running']),
  status_url: z.string(),
});

const statusUrl = (jobId: string) => `/memory/ingest/${jobId}`;

function liveStatus(
  ctx: RegistryContext,
  job: IngestJobRow,
): 'queued' | 'running' | 'done' | 'failed' {
  return job.status ?? ctx.jobs.get(job.job_id)?.state ?? 'queued';
}

/** The project's standing queries must exist before a job is accepted: a job without them could only fail. */
function checkStandingQueries(
  ctx: RegistryContext,
  project: string,
  { loadStandingQueries }: Ingest,
): void {
  try {
    loadStandingQueries(ctx.engine.paths.queriesDir, project, {
      config: ctx.config,
      resolveSources: false,
    });
  } catch (error) {
    if (!hasErrorCode(error, 'CONFIG_INVALID')) throw error;
    const file = `queries/${project}.yaml`;
    // The server's absolute paths are not the caller's business: name the file relative to the data root.
    const message = error.message.split(`${ctx.engine.paths.root}/`).join('');
    throw new MemError(
      'CONFIG_INVALID',
      `project ${project} has no usable standing queries (${file}): ${message}`,
      { file },
    );
  }
}

/**
 * Accepts an ingest job: records, or a raw Claude Code / pi / Codex CLI transcript read by the same
 * adapters as files (scrubbed at acceptance). The acceptance is an event in the project's log,
 * so the job survives a restart. Idempotent by `ingest_id` (default: the sha256 of the batch):
 * the same id returns the same job while it is queued or running, and CONFLICT with that job
 * once it is done. One job runs at a time per project.
 */
export const ingestSubmit = defineOperation({
  name: 'ingest_submit',
  summary:
    "accept an ingest job: records or a transcript, run through the project's standing queries",
  input: submitInput,
  output: jobOut,
  kind: 'write',
  idempotent: true,
  // A transcript is a record of what a terminal saw: its escapes are kept, and escaped in print.
  verbatim: ['records', 'transcript'],
  startsProject: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/ingest', status: 202 },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'submit' },
    description:
      "Submit records or a transcript to a project's standing queries, or poll a job's status.",
  },
  run: async (ctx, caller, posted) => {
    const input = scrubbedIdentity(posted);
    requireReach(caller, input.project);
    const ingest = await loadIngest();
    checkStandingQueries(ctx, input.project, ingest);
    const format = input.transcript !== undefined ? (input.format ?? 'claude') : 'records';
    const ingestId =
      input.ingest_id ??
      `sha256:${sha256Hex(JSON.stringify({ source: input.source, format, records: input.records ?? null, transcript: input.transcript ?? null }))}`;
    const accepted = await ctx.acceptance.accept({
      project: input.project,
      ingestId,
      source: input.source,
      format,
      writer: writerOf(caller),
      existing: async () =>
        (await ctx.stores.fresh()).control.ingestJobByIngestId(input.project, ingestId),
      records: async () =>
        input.transcript !== undefined
          ? ingest.recordsFromTranscript(
              input.transcript,
              format as 'claude' | 'pi' | 'codex',
              ingestId,
              input.source,
            )
          : ingest.recordsFromPosted(input.records ?? [], input.source),
    });
    if ('existing' in accepted) return answerExisting(ctx, accepted.existing);
    const { jobId } = accepted;
    return {
      job_id: jobId,
      ingest_id: ingestId,
      project: input.project,
      status: ctx.jobs.get(jobId)?.state ?? 'queued',
      status_url: statusUrl(jobId),
    };
  },
});

/**
 * The caller's `source` and `ingest_id` as the log stores them (it scrubs every string of an
 * event): a job is looked up and answered by its scrubbed identity, so a retry finds it after a
 * restart too, and no secret is echoed back. Scrubbing is deterministic: same id in, same id out.
 */
function scrubbedIdentity<T extends { source: string; ingest_id?: string | undefined }>(
  input: T,
): T {
  const ingestId =
    input.ingest_id === undefined ? {} : { ingest_id: scrubSecrets(input.ingest_id).text };
  return { ...input, source: scrubSecrets(input.source).text, ...ingestId };
}

function answerExisting(ctx: RegistryContext, job: IngestJobRow): z.infer<typeof jobOut> {
  const status = liveStatus(ctx, job);
  const answer = {
    job_id: job.job_id,
    ingest_id: job.ingest_id,
    project: job.project,
    status_url: statusUrl(job.job_id),
  };
  if (status === 'done' || status === 'failed') {
    throw new MemError(
      'CONFLICT',
      `ingest_id ${job.ingest_id} was already ingested: job ${job.job_id} is ${status}`,
      { ...answer, status },
    );
  }
  return { ...answer, status };
}

/** A job's status: queued, running (with progress), done or failed. Unknown and unreachable look the same. */
export const ingestStatus = defineOperation({
  name: 'ingest_status',
  summary: 'status of an ingest job: queued, running, done or failed',
  input: z.strictObject({ job_id: jobIdField }),
  output: z.object({
    job_id: z.string(),
    ingest_id: z.string(),
    project: z.string(),
    source: z.string(),
    format: z.string(),
    records: z.number(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    accepted_at: z.string(),
    finished_at: z.string().nullable(),
    chunks: z.number().nullable(),
    appended: z.number().nullable(),
    /** Records left out because an earlier job under the same source ingested them (null: none). */
    skipped: z.object({ records: z.number(), reason: z.literal('already ingested') }).nullable(),
    error: errorView.nullable(),
    /** While running: records and chunks done so far, memories written (a resumed job's earlier attempt included). */
    progress: z.object({ records: z.number(), chunks: z.number(), used: z.number() }).nullable(),
  }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'GET', path: '/memory/ingest/{job_id}' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'status' } },
  run: async (ctx, caller, input) => findJob(ctx, caller, input.job_id),
});

async function findJob(ctx: RegistryContext, caller: Caller, jobId: string) {
  const job = (await ctx.stores.fresh()).control.ingestJob(jobId);
  if (!job || !canReach(caller, job.project))
    throw new MemError('NOT_FOUND', `no ingest job ${jobId}`, { job_id: jobId });
  const live = ctx.jobs.get(jobId);
  return {
    job_id: job.job_id,
    ingest_id: job.ingest_id,
    project: job.project,
    source: job.source,
    format: job.format,
    records: job.records,
    status: liveStatus(ctx, job),
    accepted_at: job.accepted_ts,
    finished_at: job.finished_ts,
    chunks: job.chunks,
    appended: job.appended,
    skipped: job.skipped ? { records: job.skipped, reason: 'already ingested' as const } : null,
    error: job.error,
    progress: live && !job.status ? live.progress : null,
  };
}
