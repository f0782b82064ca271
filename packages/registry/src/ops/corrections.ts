import { z } from 'zod';
import {
  MemError,
  contentSha256,
  fromLineField,
  itemIdField,
  relationField,
  synthesisPrefix,
  type Payload,
  type Writer,
} from '@mem/core';
import { TombstoneSet, termHashes, type AppendOptions, type Engine } from '@mem/engine';
import { requireReach, writerOf, type Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import { defineOperation } from '../operation.js';
import {
  ledgerOf,
  markForgotten,
  readEvents,
  readLedger,
  type LedgerTarget,
  type MemoryLedger,
  type MutationEvent,
} from './memory-ledger.js';
import {
  requireNotForgotten,
  requireNotSuperseded,
  requireReplacementNotSuperseded,
  resolveRef,
} from './memory-ref.js';
import { projectInput } from './schemas.js';
import { ITEM_HISTORY_TYPES, itemHistory } from './items/history.js';
import { confirmationDigests } from './query-freshness.js';
import { refuseOverwritingEdits, type CaptureRead } from './vault-edit-guard.js';

const TOOL = 'correct_memory';

const refInput = z
  .string()
  .trim()
  .min(1, 'expected a line or memory sha, a unique prefix of one (6+ hex), or its exact text')
  .max(10_000);
const reasonInput = z
  .string()
  .trim()
  .min(1, 'expected a reason: every correction says why')
  .max(2_000);

/** What a correction wrote: the target it resolved to, the hashes it recorded, and where in the log. */
const mutationOut = z.object({
  project: z.string(),
  type: z.enum(['forgotten', 'superseded', 'confirmed']),
  target: z.string(),
  target_kind: z.enum(['line', 'memory']),
  before_sha256: z.string(),
  after_sha256: z.string().nullable(),
  seq: z.number(),
});
type MutationOut = z.infer<typeof mutationOut>;

const mutationText = (verb: string) => (out: MutationOut) =>
  `${verb} ${out.target_kind} ${out.target} in ${out.project} (seq ${out.seq})${out.after_sha256 !== null ? ` → ${out.after_sha256}` : ''}`;

async function append(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  payload: Payload,
  target: LedgerTarget,
  after: string | null,
  force = false,
  copies: Payload[] = [],
): Promise<MutationOut> {
  // One batch: the target's event first (its seq is the one reported), then its copies'.
  const result = await ctx.engine.append(project, [payload, ...copies], writerOf(caller), {
    force,
  });
  const type = payload.type as MutationOut['type'];
  return {
    project,
    type,
    target: target.sha256,
    target_kind: target.kind,
    before_sha256: contentSha256(target.text),
    after_sha256: after,
    seq: result.first_seq,
  };
}

/**
 * `mem forget`: a deliberate tombstone. The `forgotten` event names the target and the hashes of
 * every line it covers (content sha and term hashes, reword.ts), never their text; from then
 * on every writer refuses those lines and their rewordings unless forced.
 */
export const forget = defineOperation({
  name: 'forget',
  summary:
    'forget a line or memory: a tombstone that refuses its text and rewordings on every later write',
  input: z.strictObject({ project: projectInput, ref: refInput, reason: reasonInput }),
  output: mutationOut,
  kind: 'write',
  idempotent: false,
  destructive: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/forget', status: 201 },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'forget' },
    description:
      'Forget, supersede, confirm, pin or unpin a memory line, or read its mutation history (hashes only).',
  },
  cli: {
    command: ['forget'],
    args: ['ref'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'the project the line belongs to',
      },
      {
        field: 'reason',
        flag: '--reason <text>',
        description: 'why it is forgotten (recorded; required)',
      },
    ],
    text: mutationText('forgot'),
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    return underCorrection(ctx, input.project, async () => {
      const events = await readEvents(ctx, input.project);
      const ledger = ledgerOf(events);
      const target = resolveRef(ledger, input.project, input.ref);
      const payload = forgottenPayload(ledger, input.project, target, input.reason);
      await refuseOverwritingEdits(ctx.engine, input.project, [payload], undefined, events);
      return append(ctx, caller, input.project, payload, target, null);
    });
  },
});

/**
 * `mem supersede`: never deletes. The old target points to the new text (given, or the text of
 * another line named by ref); the new text goes through the tombstone check like every write,
 * so superseding by a forgotten text is FORGOTTEN.
 */
export const supersede = defineOperation({
  name: 'supersede',
  summary: 'supersede a line or memory by a new text (or another line): the old points to the new',
  input: z.strictObject({
    project: projectInput,
    ref: refInput,
    by: refInput,
    reason: reasonInput,
    /** Write a replacing text a `forgotten` tombstone refuses; the override is recorded (`resurfaced`). */
    force: z.boolean().optional(),
  }),
  output: mutationOut,
  kind: 'write',
  idempotent: false,
  destructive: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/supersede', status: 201 },
  mcp: { tool: TOOL, select: { field: 'action', value: 'supersede' } },
  cli: {
    command: ['supersede'],
    args: ['ref'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'the project the line belongs to',
      },
      {
        field: 'by',
        flag: '--by <text-or-ref>',
        description: 'the replacing text, or the sha (prefix) of the line that replaces it',
      },
      {
        field: 'reason',
        flag: '--reason <text>',
        description: 'why it is superseded (recorded; required)',
      },
      {
        field: 'force',
        flag: '--force',
        parse: 'boolean',
        description: 'supersede by a text a tombstone refuses (recorded as resurfaced)',
      },
    ],
    text: mutationText('superseded'),
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    return underCorrection(ctx, input.project, () => supersedeNow(ctx, caller, input));
  },
});

/**
 * Runs a correction's checks and its append as one step per project: in this process (the
 * project's serial section) and across processes (an exclusive lock), each reading the log
 * afresh inside. Trigger: two `supersede` calls of one line at once. Why: each checked a ledger
 * read before the other appended, so both appended and the projections then disagreed on which
 * replacement answers. Outcome: the second reads the first's event and is refused (CONFLICT).
 */
export function underCorrection<T>(
  ctx: Pick<RegistryContext, 'engine' | 'serial'>,
  project: string,
  fn: () => Promise<T>,
) {
  return ctx.serial.run(`correction:${project}`, () =>
    ctx.engine.exclusive(`correction-${project}`, fn),
  );
}

/** underCorrection over several projects at once, taken in name order so two callers never wait on each other. */
function underCorrections<T>(
  ctx: Pick<RegistryContext, 'engine' | 'serial'>,
  projects: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  const [first, ...rest] = [...new Set(projects)].sort();
  if (first === undefined) return fn();
  return underCorrection(ctx, first, () => underCorrections(ctx, rest, fn));
}

/**
 * The checks every writer of a `superseded` event runs on the log as it is now: the target is
 * neither forgotten nor superseded already, and its replacement (`after`, a content sha) was not
 * itself superseded. Each refusal is CONFLICT naming what answers instead, the current
 * replacement. `mem supersede`, vault capture and review supersede all end here.
 */
export function requireSupersedable(
  ledger: MemoryLedger,
  project: string,
  target: LedgerTarget,
  after: string,
): void {
  requireNotForgotten(ledger, project, target);
  requireNotSuperseded(ledger, project, target);
  requireReplacementNotSuperseded(ledger, project, target, after);
}

/** Folds a correction about to be appended into `ledger`, as its append will, so the rest of its batch sees it. */
export function foldPlannedCorrection(ledger: MemoryLedger, payload: Payload): void {
  const added = (sha256: string, text: string) => {
    if (!ledger.targets.has(sha256))
      ledger.targets.set(sha256, { sha256, kind: 'line', text, lines: [{ sha256, text }] });
  };
  if (payload.type === 'forgotten') {
    markForgotten(ledger, payload.target, payload.target, 0);
    for (const line of payload.refuses) markForgotten(ledger, line.sha256, payload.target, 0);
  } else if (payload.type === 'superseded') {
    if (!ledger.superseded.has(payload.target))
      ledger.superseded.set(payload.target, payload.after_sha256);
    added(payload.after_sha256, payload.text);
  } else if (payload.type === 'line_added') {
    added(payload.sha256, payload.text);
  }
}

/**
 * Each `superseded` and `forgotten` event of `payloads` checked against `ledger` in batch order
 * (folded in as it goes): its target is a line or memory of the project (or one added earlier
 * in the batch), NOT_FOUND else; a `superseded` event's `after_sha256` is the content sha of its
 * `text` (INVALID_INPUT else: the replacement would answer under a sha nothing can address),
 * and it passes requireSupersedable. The sha check is a writer's, not the catalogue's: a log
 * written before it must still rebuild.
 */
function requirePlannedCorrections(
  ledger: MemoryLedger,
  project: string,
  payloads: readonly Payload[],
  lines?: readonly number[],
): void {
  payloads.forEach((payload, index) => {
    const where = lines?.[index] !== undefined ? `line ${lines[index]}` : `event ${index + 1}`;
    if (payload.type === 'superseded' || payload.type === 'forgotten') {
      const target = ledger.targets.get(payload.target);
      if (target === undefined)
        throw new MemError(
          'NOT_FOUND',
          `target: ${where} (${payload.type}) names ${payload.target_kind} ${payload.target}, which is no line or memory in ${project}; nothing was appended`,
          { field: 'target', project, target: payload.target, index },
        );
      if (payload.type === 'superseded') {
        const expected = contentSha256(payload.text);
        if (payload.after_sha256 !== expected)
          throw new MemError(
            'INVALID_INPUT',
            `after_sha256: ${where} (superseded) gives ${payload.after_sha256}, expected ${expected}, the content sha256 of its text; nothing was appended`,
            { field: 'after_sha256', expected, project, index },
          );
        requireSupersedable(ledger, project, target, payload.after_sha256);
      } else requireNotForgotten(ledger, project, target);
    }
    foldPlannedCorrection(ledger, payload);
  });
}

/** Whether a batch holds an event the correction checks read: a `superseded` or `forgotten` one. */
function holdsCorrection(payloads: readonly Payload[]): boolean {
  return payloads.some((p) => p.type === 'superseded' || p.type === 'forgotten');
}

/** One project's batch of events, planned before the correction lock was taken. */
export interface PlannedBatch {
  project: string;
  payloads: Payload[];
  /** Vault capture's read of the notes: the edits its batch records (refuseOverwritingEdits). */
  capture?: CaptureRead;
}

/**
 * Appends batches of corrections planned from an earlier read (vault capture plans from the notes
 * on disk, review supersede from its queue) as one step: under every named project's correction
 * lock it reads each log afresh, checks every batch's `superseded` and `forgotten` events as
 * `mem supersede` and `mem forget` check theirs, and only then appends, one batch per project.
 * Trigger: a capture or a review supersede beside a `mem supersede` of the same line. Why: each
 * checked a read made before the other appended (or did not check at all), so both supersessions
 * were written and the projections kept different replacements. Outcome: the later one is
 * CONFLICT naming the current replacement, and nothing of any batch is appended. Returns each
 * batch's seq range (null for an empty batch), in the order given.
 */
export function appendPlannedCorrections(
  ctx: RegistryContext,
  caller: Caller,
  batches: readonly PlannedBatch[],
): Promise<({ first_seq: number; last_seq: number } | null)[]> {
  return appendCheckedBatches(ctx, writerOf(caller), batches, {});
}

function appendCheckedBatches(
  ctx: Pick<RegistryContext, 'engine' | 'serial'>,
  writer: Writer,
  batches: readonly PlannedBatch[],
  options: AppendOptions,
): Promise<({ first_seq: number; last_seq: number } | null)[]> {
  return underCorrections(
    ctx,
    batches.filter((batch) => batch.payloads.length > 0).map((batch) => batch.project),
    () => appendCheckedLocked(ctx, writer, batches, options),
  );
}

/**
 * appendPlannedCorrections' checks and appends, for a caller that already holds the correction
 * lock of every project named (underCorrection): review decisions read their queue inside it.
 */
export async function appendCheckedLocked(
  ctx: Pick<RegistryContext, 'engine' | 'serial'>,
  writer: Writer,
  batches: readonly PlannedBatch[],
  options: AppendOptions = {},
): Promise<({ first_seq: number; last_seq: number } | null)[]> {
  const written = batches.filter((batch) => batch.payloads.length > 0);
  for (const batch of written) {
    const events = await readEvents(ctx, batch.project);
    requirePlannedCorrections(ledgerOf(events), batch.project, batch.payloads);
    await refuseOverwritingEdits(ctx.engine, batch.project, batch.payloads, batch.capture, events);
  }
  const ranges: ({ first_seq: number; last_seq: number } | null)[] = [];
  for (const batch of batches) {
    if (batch.payloads.length === 0) {
      ranges.push(null);
      continue;
    }
    const result = await ctx.engine.append(batch.project, batch.payloads, writer, options);
    ranges.push({ first_seq: result.first_seq, last_seq: result.last_seq });
  }
  return ranges;
}

/**
 * `mem log append`'s write: a batch of raw payload lines. One holding a `superseded` or
 * `forgotten` event goes through the checks and the correction lock every other correction
 * writer takes (appendPlannedCorrections). Trigger: a file with two `superseded` events of one
 * line, or one naming a superseded, forgotten or unknown target, or a wrong `after_sha256`.
 * Why: log append went straight to the engine, so the second supersession was written and
 * shown nowhere, and it raced `mem supersede`. Outcome: CONFLICT (naming the current
 * replacement), NOT_FOUND or INVALID_INPUT, and nothing of the file is appended. Any other
 * batch is appended as it was, without reading the ledger. Every batch that would re-render an
 * L1/L2 note holding an uncaptured edit is refused (refuseOverwritingEdits).
 */
export async function appendLogBatch(
  ctx: Pick<RegistryContext, 'engine' | 'serial'>,
  project: string,
  payloads: readonly Payload[],
  writer: Writer,
  options: AppendOptions = {},
): ReturnType<Engine['append']> {
  if (!holdsCorrection(payloads)) {
    // A new memory or added line re-renders its note too (the correction lock is not taken:
    // nothing here reads the ledger).
    await refuseOverwritingEdits(ctx.engine, project, payloads);
    return ctx.engine.append(project, payloads, writer, options);
  }
  return underCorrection(ctx, project, async () => {
    const events = await readEvents(ctx, project);
    requirePlannedCorrections(ledgerOf(events), project, payloads, options.lines);
    await refuseOverwritingEdits(ctx.engine, project, payloads, undefined, events);
    return ctx.engine.append(project, payloads, writer, options);
  });
}

async function supersedeNow(
  ctx: RegistryContext,
  caller: Caller,
  input: { project: string; ref: string; by: string; reason: string; force?: boolean | undefined },
): Promise<MutationOut> {
  const events = await readEvents(ctx, input.project);
  const ledger = ledgerOf(events);
  const target = resolveRef(ledger, input.project, input.ref);
  const force = input.force === true;
  const text = replacingText(ledger, input.project, input.by, force);
  requireSupersedable(ledger, input.project, target, contentSha256(text));
  const [first, ...copies] = supersessionPayloads(
    ledger,
    input.project,
    target,
    text,
    input.reason,
  );
  // The replacement keeps the old line's citations: it is confirmed against them as they read
  // now. So is each copy's (the L2 `[query] ` copy cites its own spans): else its replacement
  // was stale from birth wherever the line's was not.
  const withCited = async (payload: Payload, line: LedgerTarget | undefined) => {
    const cited = line?.kind === 'line' ? await lineDigests(ctx, input.project, line) : [];
    return cited.length > 0 ? { ...payload, cited } : payload;
  };
  const payload = await withCited(first!, target);
  const copied: Payload[] = [];
  for (const copy of copies)
    copied.push(await withCited(copy, ledger.targets.get((copy as { target: string }).target)));
  await refuseOverwritingEdits(ctx.engine, input.project, [payload, ...copied], undefined, events);
  return append(ctx, caller, input.project, payload, target, contentSha256(text), force, copied);
}

/**
 * The `forgotten` event of `target` (CONFLICT when a tombstone already covers it), for a
 * writer that appends it in a batch of its own making (vault capture).
 */
export function forgottenPayload(
  ledger: MemoryLedger,
  project: string,
  target: LedgerTarget,
  reason: string,
): Payload {
  requireNotForgotten(ledger, project, target);
  return {
    type: 'forgotten',
    target: target.sha256,
    target_kind: target.kind,
    before_sha256: contentSha256(target.text),
    refuses: refusedLines(ledger, target, reason),
    reason,
  };
}

/**
 * The `superseded` event of `target` by `text`, then its copies' (supersededCopies); the
 * caller has checked `target` is not forgotten. INVALID_INPUT when the text is the target's own.
 */
export function supersessionPayloads(
  ledger: MemoryLedger,
  project: string,
  target: LedgerTarget,
  text: string,
  reason: string,
): Payload[] {
  if (contentSha256(text) === contentSha256(target.text)) {
    throw new MemError('INVALID_INPUT', 'by: the replacing text is the text it would supersede', {
      field: 'by',
      expected: 'a different text',
      project,
    });
  }
  return [
    supersededPayload(target, text, reason),
    ...supersededCopies(ledger, target, text, reason),
  ];
}

function supersededPayload(target: LedgerTarget, text: string, reason: string): Payload {
  return {
    type: 'superseded',
    target: target.sha256,
    target_kind: target.kind,
    before_sha256: contentSha256(target.text),
    after_sha256: contentSha256(text),
    text,
    reason,
  };
}

/**
 * The copies of a superseded line, each superseded by the same copy of the new text (its
 * `[query] ` prefix kept). Trigger: the L2 synthesis holds `[query] <the line>`, another query
 * a rewording. Why: superseding the line alone left the copy answering with the old text in
 * every read path. Outcome: the copies forget would refuse are superseded in the same batch;
 * one already corrected (forgotten or superseded) keeps its correction. A whole memory
 * superseded by a new text has no line-by-line correspondence, so it reaches no copies.
 */
function supersededCopies(
  ledger: MemoryLedger,
  target: LedgerTarget,
  text: string,
  reason: string,
): Payload[] {
  if (target.kind !== 'line') return [];
  return copiesOf(ledger, target, reason)
    .filter((copy) => !ledger.superseded.has(copy.sha256))
    .map((copy) => ({ copy, text: `${synthesisPrefix(copy.text)}${text}` }))
    .filter(({ copy, text }) => contentSha256(text) !== copy.sha256)
    .map(({ copy, text }) => supersededPayload(copy, text, reason));
}

/**
 * `--by` as a line when it names exactly one (a sha or unique prefix), else as the new text
 * itself. A forgotten line is refused unless forced: then the append's tombstone check lets it
 * through and records the override.
 */
function replacingText(
  ledger: Awaited<ReturnType<typeof readLedger>>,
  project: string,
  by: string,
  force: boolean,
): string {
  if (!/^[0-9a-f]{6,64}$/i.test(by.trim())) return by.trim();
  try {
    const line = resolveRef(ledger, project, by, 'by');
    if (!force) requireNotForgotten(ledger, project, line, 'by');
    return line.text;
  } catch (error) {
    if (error instanceof MemError && error.code === 'NOT_FOUND') return by.trim();
    throw error;
  }
}

/**
 * `mem confirm`: a person says the line is still true; recorded with its hash and an optional
 * note, and for a line with what its cited spans read as now (`cited`): recall holds a changed
 * source's verdict off while they still read so (issue 13 §4).
 */
export const confirm = defineOperation({
  name: 'confirm',
  summary: 'confirm a line or memory is still true',
  input: z.strictObject({
    project: projectInput,
    ref: refInput,
    note: z.string().trim().min(1).max(2_000).optional(),
  }),
  output: mutationOut,
  kind: 'write',
  idempotent: false,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/confirm', status: 201 },
  mcp: { tool: TOOL, select: { field: 'action', value: 'confirm' } },
  cli: {
    command: ['confirm'],
    args: ['ref'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'the project the line belongs to',
      },
      { field: 'note', flag: '--note <text>', description: 'what was checked (recorded)' },
    ],
    text: mutationText('confirmed'),
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    return underCorrection(ctx, input.project, () => confirmNow(ctx, caller, input));
  },
});

async function confirmNow(
  ctx: RegistryContext,
  caller: Caller,
  input: { project: string; ref: string; note?: string | undefined },
): Promise<MutationOut> {
  const ledger = await readLedger(ctx, input.project);
  const target = resolveRef(ledger, input.project, input.ref);
  requireNotForgotten(ledger, input.project, target);
  requireNotSuperseded(ledger, input.project, target, 'ref', 'confirm');
  const cited = target.kind === 'line' ? await lineDigests(ctx, input.project, target) : [];
  const payload: Payload = {
    type: 'confirmed',
    target: target.sha256,
    target_kind: target.kind,
    before_sha256: contentSha256(target.text),
    ...(input.note !== undefined ? { note: input.note } : {}),
    ...(cited.length > 0 ? { cited } : {}),
  };
  return append(ctx, caller, input.project, payload, target, null);
}

/** A line's cited spans as they read now, at each level it is held (L1, then L2), one entry per chunk. */
async function lineDigests(
  ctx: RegistryContext,
  project: string,
  target: LedgerTarget,
): Promise<{ chunk: string; digest: string }[]> {
  const items = (await ctx.stores.fresh()).items;
  const all = new Map<string, string>();
  for (const level of ['L1', 'L2'] as const)
    for (const c of await confirmationDigests(ctx, items, project, { ...target, level }))
      all.set(c.chunk, c.digest);
  return [...all]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([chunk, digest]) => ({ chunk, digest }));
}

const historyEntry = z.object({
  seq: z.number(),
  ts: z.string(),
  type: z.enum(['forgotten', 'superseded', 'confirmed', 'resurfaced', ...ITEM_HISTORY_TYPES]),
  target: z.string(),
  actor: z.string().nullable(),
  token: z.string().nullable(),
  reason: z.string().nullable(),
  before_sha256: z.string().nullable(),
  after_sha256: z.string().nullable(),
  /** Only on the item_added of a promoted fact or rule: the memory line it came from (hashes and a note path, no text). */
  from_line: fromLineField.optional(),
  /**
   * Only on the superseded entry in the history of a replacing text: the line or memory it
   * replaced (the entry's `target`), so a replacement's history says where it came from.
   */
  replaces: z.string().optional(),
  /** Only on an item_logged entry (add_log): what was logged, and the conversation label it carried. */
  text: z.string().optional(),
  conversation: z.string().optional(),
  /** Only on an item_related or item_unrelated entry: the relation, and the other item it named. */
  relation: relationField.optional(),
  related: z.string().optional(),
  /**
   * Which end of that relation this item is: `item`, the one related (`mem items relate ITEM
   * --relation R --target OTHER`), or `target`, the one it was related to.
   */
  end: z.enum(['item', 'target']).optional(),
});

/** A line's or memory's hashes; an item is not content-addressed, so it has none to print. */
function hashes(e: { before_sha256: string | null; after_sha256: string | null }): string {
  if (e.before_sha256 === null && e.after_sha256 === null) return '';
  return ` [before ${e.before_sha256 ?? '-'}${e.after_sha256 !== null ? `, after ${e.after_sha256}` : ''}]`;
}

/**
 * `mem history`: the mutation ledger of one target (and, for a line, of the memory it came
 * from), in log order. Hashes only: it never prints the text of what was forgotten.
 */
export const history = defineOperation({
  name: 'history',
  summary:
    'the mutation ledger of a line or memory: who forgot, superseded or confirmed it, why, with hashes only',
  input: z.strictObject({ project: projectInput, ref: refInput }),
  output: z.object({
    project: z.string(),
    target: z.string(),
    target_kind: z.enum(['line', 'memory', 'item']),
    entries: z.array(historyEntry),
  }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  // An item's history reads the item store (item_history); a line's still folds the log.
  http: { method: 'GET', path: '/memory/history' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'history' } },
  cli: {
    command: ['history'],
    args: ['ref'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'the project the line belongs to',
      },
    ],
    text: (out) =>
      [
        `${out.target_kind} ${out.target} in ${out.project}: ${out.entries.length} mutation${out.entries.length === 1 ? '' : 's'}`,
        ...out.entries.map(
          (e) =>
            `  seq ${e.seq} ${e.type} by ${e.actor ?? 'unknown'}${e.token !== null ? ` (token ${e.token})` : ''}${e.reason !== null ? `: ${e.reason}` : ''}${hashes(e)}${e.relation !== undefined ? ` ${e.relation}${e.end === 'target' ? ' from' : ''} ${e.related ?? '?'}` : ''}${e.from_line ? ` from line ${e.from_line.sha256} in ${e.from_line.note}` : ''}${e.replaces !== undefined ? `: this text replaced ${e.replaces}` : ''}${e.conversation !== undefined ? ` in conversation ${e.conversation}` : ''}${e.text !== undefined ? `\n    ${e.text}` : ''}`,
        ),
      ].join('\n'),
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    if (itemIdField.safeParse(input.ref).success) return itemHistory(ctx, input.project, input.ref);
    const ledger = await readLedger(ctx, input.project);
    const target = resolveRef(ledger, input.project, input.ref);
    const names = new Set([target.sha256, ...(target.memory !== undefined ? [target.memory] : [])]);
    // A replacing text's own history starts with the supersede that wrote it: the line it replaced.
    const replaces = (e: MutationEvent): string | null =>
      e.type === 'superseded' && e.after_sha256 === target.sha256 && !names.has(e.target)
        ? e.target
        : null;
    const entries = ledger.mutations
      .filter((e) =>
        e.type === 'resurfaced'
          ? names.has(e.tombstone) || names.has(e.line_sha256)
          : names.has(e.target) || replaces(e) !== null,
      )
      .map((e) => {
        const replaced = replaces(e);
        return {
          seq: e.seq,
          ts: e.ts,
          type: e.type,
          target: e.type === 'resurfaced' ? e.tombstone : e.target,
          actor: e.writer.principal ?? null,
          token: e.writer.token ?? null,
          reason: 'reason' in e ? e.reason : null,
          before_sha256: e.type === 'resurfaced' ? null : e.before_sha256,
          after_sha256:
            e.type === 'superseded'
              ? e.after_sha256
              : e.type === 'resurfaced'
                ? e.line_sha256
                : null,
          ...(replaced !== null ? { replaces: replaced } : {}),
        };
      });
    return { project: input.project, target: target.sha256, target_kind: target.kind, entries };
  },
});

/**
 * The lines a forgetting covers: the target's own, and every other line of the project that
 * says the same again (the synthesis's `[query] …` copy, another query's rewording). Trigger:
 * the same statement lives in several memories. Why: the tombstone would refuse each of them
 * as a new write, so leaving them live would let the forgotten statement keep answering.
 * Outcome: they are refused (hashes only) and leave the read paths with the target.
 */
function refusedLines(ledger: MemoryLedger, target: LedgerTarget, reason: string) {
  return [...target.lines, ...copiesOf(ledger, target, reason)].map((line) => ({
    sha256: line.sha256,
    terms: termHashes(line.text),
  }));
}

/**
 * Every other live line of the project that says one of the target's lines again: what a
 * tombstone on the target would refuse (exact, or a rewording), in ledger order.
 */
function copiesOf(ledger: MemoryLedger, target: LedgerTarget, reason: string): LedgerTarget[] {
  const refuses = target.lines.map((line) => ({
    sha256: line.sha256,
    terms: termHashes(line.text),
  }));
  const covers = new TombstoneSet();
  covers.add({ target: target.sha256, seq: 0, reason, refuses });
  const named = new Set(refuses.map((line) => line.sha256));
  const copies: LedgerTarget[] = [];
  for (const other of ledger.targets.values()) {
    if (other.kind !== 'line' || named.has(other.sha256) || ledger.forgotten.has(other.sha256))
      continue;
    if (covers.match(other.text) === null) continue;
    named.add(other.sha256);
    copies.push(other);
  }
  return copies;
}
