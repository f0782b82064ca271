import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { reviewKindField, type Payload } from '@mem/core';
import type { Grounding } from '@mem/ingest';
import { loadIngest } from '../ingest-module.js';
import { requireCapability, requireReach, writerOf } from '../caller.js';
import { appendCheckedLocked, underCorrection } from './corrections.js';
import type { RegistryContext } from '../context.js';
import { defineOperation } from '../operation.js';
import { foldQueue, type ReviewQueue } from '../review/queue.js';
import { resolveOpenFinding } from '../review/resolve-finding.js';
import { planScan } from '../review/scan.js';
import { supersedePlan } from '../review/supersede-plan.js';
import { groundingCachePath } from './grounding-cache-path.js';
import { standingQueriesHere } from './standing-queries-here.js';
import { projectInput } from './schemas.js';

const TOOL = 'review';

async function readQueue(ctx: RegistryContext, project: string): Promise<ReviewQueue> {
  const events = [];
  for await (const { event } of ctx.engine.read(project)) events.push(event);
  return foldQueue(events);
}

/**
 * What became of the chunks the queue's live lines cite, judged from the project's standing
 * query sources on this machine as query freshness judges them (checkCitedSources): one stat
 * per file of each cited source, and a re-read only where a stamp moved since either last
 * looked (the cache they share). Trigger: no `queries/<project>.yaml` (a project fed over HTTP
 * only), or one naming a source that is not here (standingQueriesHere). Why: there is no source
 * here to judge against. Outcome: no stale-grounding findings; the other detectors run.
 */
async function readGrounding(
  ctx: RegistryContext,
  project: string,
  queue: ReviewQueue,
): Promise<Map<string, Grounding>> {
  const queriesDir = ctx.engine.paths.queriesDir;
  if (!existsSync(join(queriesDir, `${project}.yaml`))) return new Map();
  const { checkCitedSources, loadStandingQueries } = await loadIngest();
  const config = standingQueriesHere(ctx, project, loadStandingQueries);
  if (config === null) return new Map();
  return checkCitedSources(config, [...queue.evidence.values()], {
    cachePath: groundingCachePath(ctx, project),
  });
}

const findingView = z.object({
  id: z.string(),
  kind: reviewKindField,
  subjects: z.array(z.string()),
  explanation: z.string(),
  seq: z.number(),
  opened_by: z.string().nullable(),
});

const findingLine = (f: z.infer<typeof findingView>) =>
  `  ${f.id.slice(0, 12)} ${f.kind} (seq ${f.seq}): ${f.explanation}`;

/** `mem review scan`: runs every detector over the log and appends the findings not yet opened. */
export const reviewScan = defineOperation({
  name: 'review_scan',
  summary:
    'run the review detectors (resurfacing, contradiction, duplicate, stale grounding, orphaned knowledge) and open the new findings',
  input: z.strictObject({ project: projectInput }),
  output: z.object({ project: z.string(), opened: z.array(findingView) }),
  kind: 'write',
  // A second scan over an unchanged log finds every finding already open and appends nothing.
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/review/scan', status: 201 },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'scan' },
    description:
      'The review queue: scan for findings (resurfacing, contradiction, duplicate, stale grounding, orphaned knowledge), list the open ones, or decide one (keep, dismiss, supersede).',
  },
  cli: {
    command: ['review', 'scan'],
    options: [{ field: 'project', flag: '--project <name>', description: 'the project to scan' }],
    text: (out) =>
      [
        `opened ${out.opened.length} finding${out.opened.length === 1 ? '' : 's'} in ${out.project}`,
        ...out.opened.map(findingLine),
      ].join('\n'),
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    const queue = await readQueue(ctx, input.project);
    const planned = planScan(queue, await readGrounding(ctx, input.project, queue));
    if (planned.length === 0) return { project: input.project, opened: [] };
    const result = await ctx.engine.append(input.project, planned, writerOf(caller));
    const first = result.last_seq - planned.length + 1;
    const writer = writerOf(caller);
    return {
      project: input.project,
      opened: planned.map((f, i) => ({
        id: f.id,
        kind: f.kind,
        subjects: f.subjects,
        explanation: f.explanation,
        seq: first + i,
        opened_by: writer.principal ?? null,
      })),
    };
  },
});

/** `mem review list`: the open findings, oldest first, read from the SQLite projection (review_finding). */
export const reviewList = defineOperation({
  name: 'review_list',
  summary: 'the open review findings of a project, oldest first',
  input: z.strictObject({ project: projectInput }),
  output: z.object({
    project: z.string(),
    findings: z.array(findingView),
    /** How many are open of each kind (orphaned_knowledge among them), by kind. */
    kinds: z.array(z.object({ kind: reviewKindField, open: z.number() })),
  }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'GET', path: '/memory/review' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'list' } },
  cli: {
    command: ['review', 'list'],
    options: [{ field: 'project', flag: '--project <name>', description: 'the project to list' }],
    text: (out) =>
      [
        `${out.findings.length} open finding${out.findings.length === 1 ? '' : 's'} in ${out.project}${out.kinds.length > 0 ? ` (${out.kinds.map((k) => `${k.open} ${k.kind}`).join(', ')})` : ''}`,
        ...out.findings.map(findingLine),
      ].join('\n'),
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    return ctx.stores.settledRead([input.project], ({ items }) =>
      Promise.resolve({
        project: input.project,
        findings: items.openFindings(input.project),
        kinds: items.openFindingCounts([input.project]).map(({ kind, open }) => ({ kind, open })),
      }),
    );
  },
});

const decisionOut = z.object({
  project: z.string(),
  id: z.string(),
  decision: z.enum(['keep', 'dismiss', 'supersede']),
  superseded: z.array(z.string()),
  seq: z.number(),
});

/** One of `mem review keep|dismiss|supersede ID --reason TEXT`: a `review_decided` event, the actor its writer. */
function decideOperation(decision: 'keep' | 'dismiss' | 'supersede', summary: string) {
  return defineOperation({
    name: `review_${decision}`,
    summary,
    input: z.strictObject({
      project: projectInput,
      id: z.string().trim().min(1, 'expected a finding id or a unique prefix of one').max(64),
      reason: z.string().trim().min(1, 'expected a reason: every decision says why').max(2_000),
    }),
    output: decisionOut,
    kind: 'write',
    idempotent: false,
    ...(decision === 'supersede' ? { destructive: true } : {}),
    auth: { access: 'token', project: 'project' },
    http: { method: 'POST', path: `/memory/review/${decision}`, status: 201 },
    mcp: { tool: TOOL, select: { field: 'action', value: decision } },
    cli: {
      command: ['review', decision],
      args: ['id'],
      options: [
        { field: 'project', flag: '--project <name>', description: 'the project of the finding' },
        {
          field: 'reason',
          flag: '--reason <text>',
          description: 'why (recorded; required)',
        },
      ],
      text: (out: z.infer<typeof decisionOut>) =>
        `${out.decision} finding ${out.id} in ${out.project} (seq ${out.seq})${out.superseded.length > 0 ? `; superseded ${out.superseded.join(', ')}` : ''}`,
    },
    run: async (ctx, caller, input) => {
      requireReach(caller, input.project);
      // The queue is read, the decision planned and appended as one step under the project's
      // correction lock. Trigger: two decisions on one finding at once (two processes). Why:
      // each read the queue before the other appended, so both wrote `review_decided` (and a
      // supersede its supersessions). Outcome: the second reads the first's decision and is
      // CONFLICT naming it (resolveOpenFinding), nothing appended.
      return underCorrection(ctx, input.project, async () => {
        const queue = await readQueue(ctx, input.project);
        const finding = resolveOpenFinding(queue, input.project, input.id);
        const supersessions =
          decision === 'supersede'
            ? supersedePlan(queue, input.project, finding, input.reason)
            : [];
        // Filing a rule under archive edits it: the capability add_items and update_item ask.
        if (supersessions.some((p) => 'item' in p && queue.items.get(p.item)?.type === 'rule'))
          requireCapability(caller, 'may_write_rules');
        const payloads: Payload[] = [
          ...supersessions,
          { type: 'review_decided', id: finding.opened.id, decision, reason: input.reason },
        ];
        // Its supersessions are checked as `mem supersede`'s are, on the log read under the lock.
        const [range] = await appendCheckedLocked(ctx, writerOf(caller), [
          { project: input.project, payloads },
        ]);
        return {
          project: input.project,
          id: finding.opened.id,
          decision,
          // The lines superseded, or the items a fold filed under archive.
          superseded: supersessions.flatMap((p) =>
            p.type === 'superseded' ? [p.target] : p.type === 'item_attention_set' ? [p.item] : [],
          ),
          seq: range!.last_seq,
        };
      });
    },
  });
}

export const reviewKeep = decideOperation(
  'keep',
  'keep a review finding: the lines stay as they are',
);
export const reviewDismiss = decideOperation(
  'dismiss',
  'dismiss a review finding: it was not a problem',
);
export const reviewSupersede = decideOperation(
  'supersede',
  'resolve a duplicate or contradiction finding: older lines superseded by the newest (duplicate items: the older filed under archive, linked to the newest)',
);
