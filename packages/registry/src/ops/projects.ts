import { z } from 'zod';
import { ITEM_TYPES, isKnowledge, isResolved, type ItemStatus } from '@mem/core';
import { readVaultNotes } from '@mem/projector-vault';
import { requireReach } from '../caller.js';
import { defineOperation } from '../operation.js';
import { visibleProjects } from './reach.js';
import { projectInput } from './schemas.js';

/** Lists the projects the caller reaches, each with its current L2 synthesis (or null). */
export const projectList = defineOperation({
  name: 'project_list',
  summary: 'list the projects this token reaches, with their current synthesis',
  input: z.strictObject({}),
  output: z.array(z.object({ name: z.string(), synthesis: z.string().nullable() })),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'GET', path: '/memory/projects' },
  mcp: {
    tool: 'list_projects',
    description: 'The projects this token reaches, each with its current L2 synthesis.',
  },
  cli: {
    command: ['project', 'list'],
    text: (out) => (out.length === 0 ? 'no projects' : out.map((p) => p.name).join('\n')),
  },
  run: async (ctx, caller) => {
    const view = await ctx.stores.fresh();
    return (await visibleProjects(ctx, caller, view)).map((name) => {
      const l2 = view.items.nodes({ project: name, levels: ['L2'], kind: 'memory' }).at(-1);
      return { name, synthesis: l2?.text ?? null };
    });
  },
});

const jobView = z.object({
  job_id: z.string(),
  status: z.string(),
  accepted_at: z.string(),
  finished_at: z.string().nullable(),
});

/**
 * Every item type with its live count, and for work its open count (any status but done and
 * dropped). Trigger: the stop-32 walk (status counted nodes and chunks, never items).
 */
function itemCounts(rows: readonly { type: string; status: string | null; items: number }[]) {
  return ITEM_TYPES.map((type) => {
    const mine = rows.filter((r) => r.type === type);
    const total = mine.reduce((sum, r) => sum + r.items, 0);
    const open = mine
      .filter((r) => r.status !== null && !isResolved(r.status as ItemStatus))
      .reduce((sum, r) => sum + r.items, 0);
    return { type, total, open: isKnowledge(type) ? null : open };
  });
}

/** Ingest and synthesis status of one project: last ingest, chunks total/used, update-rate, last synthesis. */
export const projectStatus = defineOperation({
  name: 'project_status',
  summary: 'ingest and synthesis status of a project',
  input: z.strictObject({ project: projectInput }),
  output: z.object({
    project: z.string(),
    last_ingest: jobView.nullable(),
    last_run_at: z.string().nullable(),
    chunks_total: z.number(),
    chunks_used: z.number(),
    update_rate: z.number(),
    last_synthesis_at: z.string().nullable(),
    nodes: z.object({ L0: z.number(), L1: z.number(), L2: z.number(), R: z.number() }),
    jobs: z.object({ queued: z.number(), running: z.number() }),
    log_seq: z.number(),
    projected_seq: z.number(),
    /** Live (not deleted) curated items per type, every type listed; `open`: work not done or dropped (null for knowledge). */
    items: z.array(z.object({ type: z.string(), total: z.number(), open: z.number().nullable() })),
  }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'GET', path: '/memory/projects/{project}/status' },
  mcp: {
    tool: 'project_status',
    description: "A project's last ingest, chunks seen and used, update-rate and last synthesis.",
  },
  cli: {
    command: ['project', 'status'],
    args: ['project'],
    text: (s) =>
      [
        `${s.project}: ${s.chunks_used} of ${s.chunks_total} chunks used (update-rate ${(s.update_rate * 100).toFixed(1)}%)`,
        `  nodes L0 ${s.nodes.L0}, L1 ${s.nodes.L1}, L2 ${s.nodes.L2}, R ${s.nodes.R}; last run ${s.last_run_at ?? 'never'}; last synthesis ${s.last_synthesis_at ?? 'never'}`,
        `  last ingest job ${s.last_ingest ? `${s.last_ingest.job_id} ${s.last_ingest.status}` : 'none'}; log seq ${s.log_seq}, projected ${s.projected_seq}`,
        `  items: ${s.items.map((i) => `${i.type} ${i.total}${i.open !== null ? ` (${i.open} open)` : ''}`).join(', ')}`,
      ].join('\n'),
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    const view = await ctx.stores.fresh();
    const activity = view.control.projectActivity(input.project);
    const job = view.control.lastIngestJob(input.project);
    const live = job ? ctx.jobs.get(job.job_id) : undefined;
    const head = await ctx.engine.head(input.project);
    return {
      project: input.project,
      last_ingest: job
        ? {
            job_id: job.job_id,
            status: job.status ?? live?.state ?? 'queued',
            accepted_at: job.accepted_ts,
            finished_at: job.finished_ts,
          }
        : null,
      last_run_at: activity.last_l1_run_ts,
      chunks_total: activity.chunks_total,
      chunks_used: activity.chunks_used,
      update_rate: activity.chunks_total > 0 ? activity.chunks_used / activity.chunks_total : 0,
      last_synthesis_at: activity.last_synthesis_ts,
      nodes: activity.nodes,
      jobs: ctx.jobs.counts(input.project),
      log_seq: head.seq,
      projected_seq: view.control.positions().find((p) => p.project === input.project)?.seq ?? 0,
      items: itemCounts(view.items.typeCounts(input.project)),
    };
  },
});

/**
 * The project's vault notes (index, L1 notes, evidence notes) as JSON. A file in the project's
 * folder whose frontmatter is not plain YAML is never run; `refused` names it and says why.
 */
export const projectNotes = defineOperation({
  name: 'project_notes',
  summary: "a project's Obsidian notes (L2 index, L1 notes) as JSON",
  input: z.strictObject({ project: projectInput }),
  output: z.object({
    project: z.string(),
    notes: z.array(
      z.object({
        path: z.string(),
        frontmatter: z.record(z.string(), z.unknown()),
        body: z.string(),
      }),
    ),
    refused: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
  }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'GET', path: '/memory/projects/{project}/notes' },
  mcp: {
    tool: 'read_notes',
    description: "A project's vault notes: the L2 index and one L1 note per standing query.",
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    const { notes, refused } = await readVaultNotes(ctx.engine.paths.vaultDir, input.project);
    return { project: input.project, notes, refused };
  },
});
