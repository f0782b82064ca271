import { z } from 'zod';
import { MemError } from '@mem/core';
import { requireReach, type Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import { defineOperation, type LocalOnly } from '../operation.js';
import { forget, supersede } from './corrections.js';
import { projectInput } from './schemas.js';
import { planProjectCapture, type ProjectCapturePlan } from './vault-capture-plan.js';

/** Recorded on every event capture appends: where the correction came from. */
export const CAPTURE_REASON = 'edited in the vault';

const LOCAL: LocalOnly = {
  why: 'reads the vault folder on this machine; remote callers correct lines with forget and supersede',
};

const captured = z.object({
  project: z.string(),
  path: z.string(),
  line: z.number(),
  kind: z.enum(['forget', 'supersede']),
  block: z.string(),
  target: z.string(),
  seq: z.number().nullable(),
});

const findingOut = z.object({
  project: z.string(),
  path: z.string(),
  line: z.number(),
  problem: z.string(),
  message: z.string(),
  tombstone: z.string().optional(),
});

const captureOut = z.object({
  dry_run: z.boolean(),
  events: z.array(captured),
  findings: z.array(findingOut),
});
type CaptureOut = z.infer<typeof captureOut>;

function captureText(out: CaptureOut): string {
  const verb = out.dry_run ? 'would append' : 'appended';
  return [
    `${verb} ${out.events.length} event${out.events.length === 1 ? '' : 's'}${out.dry_run ? ' (dry run: nothing written)' : ''}`,
    ...out.events.map(
      (e) =>
        `  ${e.kind === 'forget' ? 'forgotten' : 'superseded'} ^${e.block} (${e.path} line ${e.line})${e.seq !== null ? ` seq ${e.seq}` : ''}`,
    ),
    ...out.findings.map((f) => `  not captured: ${f.message} [${f.problem}]`),
  ].join('\n');
}

/** The line sha a block id of a projected note shows; NOT_FOUND when the log has none there. */
function targetOf(plan: ProjectCapturePlan, path: string, block: string): string {
  const sha = plan.projected.get(path)?.blocks.get(block);
  if (sha === undefined)
    throw new MemError(
      'NOT_FOUND',
      `${path}: block ^${block} names no line of the note's memory (its memory was replaced as a whole); nothing was captured`,
      { path, block },
    );
  return sha;
}

async function appendPlan(
  ctx: RegistryContext,
  caller: Caller,
  plans: ProjectCapturePlan[],
  dryRun: boolean,
): Promise<CaptureOut['events']> {
  // Every target resolved first: a block that names nothing stops the capture before any append.
  const planned = plans.flatMap((plan) =>
    plan.notes.flatMap((note) =>
      note.intents.map((intent) => ({
        project: plan.project,
        intent,
        target: targetOf(plan, note.path, intent.block),
      })),
    ),
  );
  const events: CaptureOut['events'] = [];
  for (const { project, intent, target } of planned) {
    let seq: number | null = null;
    if (!dryRun) {
      const input = { project, ref: target, reason: CAPTURE_REASON };
      const out =
        intent.kind === 'forget'
          ? await forget.run(ctx, caller, input)
          : await supersede.run(ctx, caller, { ...input, by: intent.text });
      seq = out.seq;
    }
    const { path, line, kind, block } = intent;
    events.push({ project, path, line, kind, block, target, seq });
  }
  return events;
}

/**
 * `mem vault capture`: a person's edits of L1/L2 notes become events, so a rebuild reproduces
 * them instead of overwriting them. A deleted memory line is `forgotten`, a rewritten one
 * `superseded` by its new text, both by the local principal with reason "edited in the vault";
 * anything else that differs is reported, not captured.
 */
export const vaultCapture = defineOperation({
  name: 'vault_capture',
  summary: 'turn edits of L1/L2 vault notes into forgotten/superseded events',
  input: z.strictObject({
    project: projectInput.optional(),
    dry_run: z.boolean().default(false),
  }),
  output: captureOut,
  kind: 'write',
  idempotent: true,
  destructive: true,
  auth: { access: 'admin', project: 'project' },
  reads: 'log',
  local: LOCAL,
  cli: {
    command: ['vault', 'capture'],
    options: [
      { field: 'project', flag: '--project <name>', description: 'only this project' },
      {
        field: 'dry_run',
        flag: '--dry-run',
        parse: 'boolean',
        description: 'print the plan; append nothing',
      },
    ],
    text: captureText,
  },
  run: async (ctx, caller, input) => {
    const projects =
      input.project !== undefined
        ? [input.project]
        : (await ctx.engine.projects()).filter((p) => p !== '_system');
    const plans: ProjectCapturePlan[] = [];
    for (const project of projects) {
      requireReach(caller, project);
      plans.push(await planProjectCapture(ctx.engine, project));
    }
    const findings = plans.flatMap((plan) =>
      plan.notes.flatMap((note) => note.findings.map((f) => ({ project: plan.project, ...f }))),
    );
    const events = await appendPlan(ctx, caller, plans, input.dry_run);
    return { dry_run: input.dry_run, events, findings };
  },
});
