import { z } from 'zod';
import { requireReach } from '../caller.js';
import { defineOperation } from '../operation.js';
import { visibleProjects } from './reach.js';
import { verifyReport, verifyText } from './verify-report.js';
import { withVaultDrift } from './verify-drift.js';
import { withDerivedFilter } from './verify-derived.js';
import { projectInput } from './schemas.js';

const TOOL = 'log';

/**
 * `mem verify` over the wire: every hash chain, the provenance graph, and byte parity of the
 * projections with a fresh rebuild. Admin: it rebuilds whole projections, which is costly.
 */
export const verify = defineOperation({
  name: 'verify',
  summary: 'verify hash chains, provenance and projection parity (admin; costly)',
  input: z.strictObject({
    project: projectInput.optional(),
    /** Also audit the cycle guard: no L0 evidence repeats a registered skill or reference text. */
    derived_filter: z.boolean().optional(),
  }),
  output: verifyReport,
  kind: 'read',
  idempotent: true,
  auth: { access: 'admin' },
  reads: 'log',
  http: { method: 'GET', path: '/memory/verify' },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'verify' },
    description: 'Verify the log (admin), or see how far the projections have applied it.',
  },
  cli: {
    command: ['verify'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'only this project (parity still rebuilds the whole SQLite store)',
      },
      {
        field: 'derived_filter',
        flag: '--derived-filter',
        parse: 'boolean',
        description: 'also fail on L0 evidence repeating a registered skill or reference text',
      },
    ],
    text: verifyText,
    failed: (report) => !report.ok,
  },
  run: async (ctx, _caller, input) => {
    const report = await withVaultDrift(
      ctx.engine,
      await ctx.engine.verify(input.project !== undefined ? { project: input.project } : {}),
    );
    return input.derived_filter === true ? withDerivedFilter(ctx.engine, report) : report;
  },
});

/** Rebuild status: per reachable project, the log head and how far the SQLite projection has applied it. */
export const projectionStatus = defineOperation({
  name: 'projection_status',
  summary: 'how far the projections have applied each reachable project log',
  input: z.strictObject({ project: projectInput.optional() }),
  output: z.array(
    z.object({
      project: z.string(),
      log_seq: z.number(),
      projected_seq: z.number(),
      behind: z.number(),
    }),
  ),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'GET', path: '/memory/projections' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'projections' } },
  run: async (ctx, caller, input) => {
    if (input.project !== undefined) requireReach(caller, input.project);
    const view = await ctx.stores.fresh();
    const projects =
      input.project !== undefined ? [input.project] : await visibleProjects(ctx, caller, view);
    const positions = new Map(view.control.positions().map((p) => [p.project, p.seq]));
    const out = [];
    for (const project of projects) {
      const head = await ctx.engine.head(project);
      const projected = positions.get(project) ?? 0;
      out.push({
        project,
        log_seq: head.seq,
        projected_seq: projected,
        behind: Math.max(0, head.seq - projected),
      });
    }
    return out;
  },
});
