import { z } from 'zod';
import { MemError, contentSha256, refuseControlText, type Payload } from '@mem/core';
import { TombstoneSet } from '@mem/engine';
import { requireReach, type Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import { defineOperation, type LocalOnly } from '../operation.js';
import {
  appendPlannedCorrections,
  foldPlannedCorrection,
  forgottenPayload,
  supersessionPayloads,
} from './corrections.js';
import { readLedger, type MemoryLedger } from './memory-ledger.js';
import { requireNotForgotten, resolveRef } from './memory-ref.js';
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
  kind: z.enum(['forget', 'supersede', 'add']),
  /** The block id of the line; '' for a line added in the vault (it has none). */
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

const EVENT = { forget: 'forgotten', supersede: 'superseded', add: 'line_added' } as const;

function captureText(out: CaptureOut): string {
  const verb = out.dry_run ? 'would append' : 'appended';
  return [
    `${verb} ${out.events.length} event${out.events.length === 1 ? '' : 's'}${out.dry_run ? ' (dry run: nothing written)' : ''}`,
    ...out.events.map(
      (e) =>
        `  ${EVENT[e.kind]} ${e.block !== '' ? `^${e.block}` : `line ${e.target.slice(0, 8)}`} (${e.path} line ${e.line})${e.seq !== null ? ` seq ${e.seq}` : ''}`,
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

/**
 * The line a block shows: the end of its supersession chain. Trigger: a superseded line renders
 * its replacement under its own block id, and its old words may be forgotten since. Why: an edit
 * there is an edit of the replacement the person sees. Outcome: it corrects the replacement (a
 * chain that loops, a log written by hand, stops where it repeats).
 */
function shownBy(ledger: MemoryLedger, sha: string): string {
  const seen = new Set<string>();
  let current = sha;
  while (!seen.has(current)) {
    seen.add(current);
    const next = ledger.superseded.get(current);
    if (next === undefined) break;
    current = next;
  }
  return current;
}

/** One planned change: where it was seen, and the events it appends (first: the one reported). */
interface PlannedChange {
  event: Omit<CaptureOut['events'][number], 'seq'>;
  payloads: Payload[];
}

/**
 * A project's changes as one batch, built against one ledger that each change is folded into,
 * so a later change sees what an earlier one forgot or superseded. Trigger: one change the log
 * refuses (a rewrite to the text the same capture forgets). Why: appended change by change, a
 * refusal half-way left half the edit captured. Outcome: the whole capture is refused, nothing
 * appended, and the batch of a capture that succeeds is one seq range under one timestamp.
 */
async function projectBatch(
  ctx: RegistryContext,
  plan: ProjectCapturePlan,
): Promise<PlannedChange[]> {
  const { project } = plan;
  const ledger = await readLedger(ctx, project);
  const forgets = new TombstoneSet();
  const changes: PlannedChange[] = [];
  for (const note of plan.notes) {
    const projected = plan.projected.get(note.path);
    for (const intent of note.intents) {
      const { path, line } = intent;
      if (intent.kind !== 'forget') refuseNoteControls(project, path, line, intent.text);
      if (intent.kind === 'add') {
        refuseForgottenHere(forgets, project, path, line, intent.text);
        const sha256 = contentSha256(intent.text);
        const payload: Payload = {
          type: 'line_added',
          level: projected!.level,
          query_id: projected!.query_id,
          after: intent.after,
          sha256,
          text: intent.text,
          reason: CAPTURE_REASON,
        };
        noteAdded(ledger, sha256, intent.text);
        changes.push({
          event: { project, path, line, kind: 'add', block: '', target: sha256 },
          payloads: [payload],
        });
        continue;
      }
      const sha = intent.target ?? targetOf(plan, path, intent.block);
      const target = resolveRef(ledger, project, shownBy(ledger, sha));
      requireNotForgotten(ledger, project, target);
      let payloads: Payload[];
      if (intent.kind === 'forget') {
        payloads = [forgottenPayload(ledger, project, target, CAPTURE_REASON)];
      } else {
        refuseForgottenHere(forgets, project, path, line, intent.text);
        payloads = supersessionPayloads(ledger, project, target, intent.text, CAPTURE_REASON);
      }
      for (const payload of payloads) foldPlanned(ledger, forgets, payload);
      changes.push({
        event: {
          project,
          path,
          line,
          kind: intent.kind,
          block: intent.block,
          target: target.sha256,
        },
        payloads,
      });
    }
  }
  return changes;
}

/**
 * A note's line holding a control or bidi character: INVALID_INPUT naming the note, its line,
 * the field (`text`) and the code point, the check every registry write runs. Trigger: a vault
 * note is a file anyone with the folder can edit, and its line would be stored and then shown
 * in every terminal that prints it. Why refuse the capture, not skip the line: a capture is one
 * batch per project (half an edit is worse than none), and an unreadable note (a symlink,
 * invalid UTF-8) already stops it the same way. Outcome: nothing is appended; once the line is
 * fixed, the next capture (or `mem vault watch`'s next pass) takes the whole edit.
 */
function refuseNoteControls(project: string, path: string, line: number, text: string): void {
  refuseControlText({ text }, `${path} line ${line}`, [], { project, path, line });
}

/** A rewrite or an added line repeating what this same capture forgets: FORGOTTEN, nothing appended. */
function refuseForgottenHere(
  forgets: TombstoneSet,
  project: string,
  path: string,
  line: number,
  text: string,
): void {
  const found = forgets.match(text);
  if (!found) return;
  throw new MemError(
    'FORGOTTEN',
    `${path} line ${line}: the text ${found.match === 'exact' ? 'repeats' : 'rewords'} line ${found.tombstone} this capture forgets; nothing was captured (edit one of the two and capture again)`,
    { project, path, line, tombstone: found.tombstone, match: found.match },
  );
}

/** Folds a planned payload into the ledger (and the capture's own tombstones) as its append would. */
function foldPlanned(ledger: MemoryLedger, forgets: TombstoneSet, payload: Payload): void {
  foldPlannedCorrection(ledger, payload);
  if (payload.type === 'forgotten')
    forgets.add({
      target: payload.target,
      seq: 0,
      reason: payload.reason,
      refuses: payload.refuses,
    });
}

function noteAdded(ledger: MemoryLedger, sha256: string, text: string): void {
  if (!ledger.targets.has(sha256))
    ledger.targets.set(sha256, { sha256, kind: 'line', text, lines: [{ sha256, text }] });
}

async function appendPlan(
  ctx: RegistryContext,
  caller: Caller,
  plans: ProjectCapturePlan[],
  dryRun: boolean,
): Promise<CaptureOut['events']> {
  // Every project's batch built first: a change that names nothing, or that the log would
  // refuse, stops the capture before any append.
  const batches: PlannedChange[][] = [];
  for (const plan of plans) batches.push(await projectBatch(ctx, plan));
  // Planned from the notes as the person left them; checked again and appended under the
  // correction lock of every project (a `mem supersede` of the same line may have landed since):
  // one append per project (a project's log is its own chain), all of the capture or none.
  const ranges = dryRun
    ? batches.map(() => null)
    : await appendPlannedCorrections(
        ctx,
        caller,
        batches.map((changes, i) => ({
          project: plans[i]!.project,
          payloads: changes.flatMap((change) => change.payloads),
          capture: plans[i]!,
        })),
      );
  const events: CaptureOut['events'] = [];
  for (const [i, changes] of batches.entries()) {
    let seq = ranges[i]?.first_seq ?? null;
    for (const change of changes) {
      events.push({ ...change.event, seq });
      if (seq !== null) seq += change.payloads.length;
    }
  }
  return events;
}

/**
 * `mem vault capture`: a person's edits of L1/L2 notes become events, so a rebuild reproduces
 * them instead of overwriting them. A deleted line is `forgotten`, a rewritten one `superseded`
 * by its new text, a new bullet among the note's lines `line_added`, all by the local principal
 * with reason "edited in the vault", one batch per project; anything else that differs is
 * reported, not captured.
 */
export const vaultCapture = defineOperation({
  name: 'vault_capture',
  summary: 'turn edits of L1/L2 vault notes into forgotten/superseded/line_added events',
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
