import { z } from 'zod';
import type { ItemActivityRow } from '@mem/projector-sqlite';
import {
  DEFAULT_ORIENT_BUDGET,
  isoTimeInputField,
  reviewKindField,
  type OrientBudget,
} from '@mem/core';
import { requireReach, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import { visibleProjects } from '../reach.js';
import { settledItems, type ReachableItems } from './reachable-store.js';
import {
  activityOf,
  byRecency,
  fitting,
  fittingPrefix,
  knowledgeEntry,
  knowledgeShape,
  listBytes,
  oneLine,
  slimOfRow,
  slimShape,
} from './slim.js';
import {
  boundedWarnings,
  deliveredKnowledgeWarnings,
  freshnessViewOf,
  freshnessWarning,
} from './freshness.js';
import { orderedMerge, tiesSorted } from './ordered-merge.js';
import { citingScope } from './source-check.js';

/** Reminders due inside this window from the caller's clock are listed (seed 000 §5.1). */
export const REMINDER_WINDOW_DAYS = 14;
const DAY_MS = 86_400_000;

export const orientInput = z.strictObject({
  project: projectInput.optional(),
  /** The caller's clock: the reminder window is relative to it, never to the server's. */
  now: isoTimeInputField.optional(),
});

const capped = <T extends z.ZodType>(entry: T) =>
  z.object({ items: z.array(entry), bytes: z.number(), cap: z.number() });
const truncated = <T extends z.ZodType>(entry: T) =>
  z.object({
    items: z.array(entry),
    /** Every entry there is, however many fit. */
    total: z.number(),
    omitted: z.number(),
    bytes: z.number(),
    cap: z.number(),
  });

const reviewPointer = z.object({
  project: z.string(),
  open: z.number(),
  kinds: z.array(z.object({ kind: reviewKindField, open: z.number() })),
  next: z.string(),
});

const reminderShape = z.object({
  id: z.string(),
  project: z.string(),
  summary: z.string(),
  status: z.string(),
  remind_at: z.string(),
});

/**
 * T0. Key order is payload order and matters: rules then facts lead, so for fixed membership
 * the payload's first bytes are identical across calls and clocks (a provider's prefix cache);
 * everything that moves with activity or time comes after them.
 */
export const orientOut = z.object({
  rules: capped(knowledgeShape),
  facts: capped(knowledgeShape),
  threads: truncated(slimShape),
  reminders: truncated(reminderShape),
  projects: truncated(z.object({ project: z.string(), items: z.number() })),
  tags: truncated(z.object({ tag: z.string(), count: z.number() })),
  /**
   * The open review findings of each project read, by kind (orphaned knowledge among them: a
   * fact whose every anchor is deleted is loaded by no orient and no open, so this is where it
   * is pointed at), with the command that lists them. Only projects with one open; by project.
   * Bounded (stop 33): a reader of many projects gets the first that fit the `review` budget,
   * `total` counting every project with an open finding.
   */
  review: truncated(reviewPointer),
  now: z.string(),
  window_days: z.number(),
  /**
   * The rules and facts above that are expired or past their review date at `now`: still
   * listed (a binding rule is never cut), never silently. Last, so the prefix stays the same
   * across clocks. Bounded; `freshness_warnings_left_out` counts the rest.
   */
  freshness_warnings: z.array(freshnessWarning),
  freshness_warnings_left_out: z.number().optional(),
});
export type Orientation = z.infer<typeof orientOut>;

/**
 * The open findings of projects read, counted by kind (one grouped read of
 * review_finding_open_kind), by project, as many as fit `cap` bytes. Trigger: a reader of
 * hundreds of projects, each with findings open. Why: orient is one bounded read, and every
 * other section truncates under its budget. Outcome: the first pointers that fit, `total` every
 * project with one open, `omitted` the rest.
 */
export function reviewPointers(
  { projects, items }: Pick<ReachableItems, 'projects' | 'items'>,
  cap: number,
) {
  const byProject = new Map<string, z.infer<typeof reviewPointer>>();
  for (const { project, kind, open } of items.openFindingCounts(projects)) {
    const entry = byProject.get(project) ?? {
      project,
      open: 0,
      kinds: [],
      next: `mem review list --project ${project}`,
    };
    entry.open += open;
    entry.kinds.push({ kind, open });
    byProject.set(project, entry);
  }
  return section([...byProject.values()], cap);
}

export function orientBudget(ctx: RegistryContext): OrientBudget {
  return ctx.config.MEM_ORIENT_BUDGET ?? DEFAULT_ORIENT_BUDGET;
}

/** Code-unit order: SQLite's binary order. */
const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Projects in locale order, then ids in code-unit order. An id is `it-` and 12 lowercase hex
 * (core's itemId), where the two orders agree, so ids compare as SQLite sorts them: a project's
 * index range is then already in this order (see reminders).
 */
const byProjectThenId = (a: { project: string; id: string }, b: { project: string; id: string }) =>
  a.project.localeCompare(b.project) || binary(a.id, b.id);

function section<T>(entries: readonly T[], cap: number) {
  const { items, omitted } = fitting(entries, cap);
  return { items, total: entries.length, omitted, bytes: listBytes(items), cap };
}

/**
 * Rules and facts are never cut here: the write cap keeps each project's set within its
 * allowance, and silently dropping a binding rule is what the cap exists to prevent. A reader
 * of N projects gets up to N allowances, so the section's cap is that sum.
 */
function alwaysLoaded(
  { projects, items }: ReachableItems,
  type: 'rule' | 'fact',
  perProject: number,
) {
  // Trigger: an archived rule or fact. Why: archive is "filed away", and T0 is what loads.
  // Outcome: left out here; the write cap still counts it (see loadedKnowledge).
  const rows = items.loadedKnowledge(projects, type);
  const entries = rows.map(knowledgeEntry);
  return {
    rows,
    items: entries,
    bytes: listBytes(entries),
    cap: perProject * Math.max(1, projects.length),
  };
}

/**
 * Open threads, most recent activity first, each with its open marker at the caller's clock
 * (core's verdict, as find shows it): fixed data and clock give fixed bytes, and the threads
 * come after the rules and facts, so a clock moves no byte of that prefix.
 */
function threads({ projects, items }: ReachableItems, now: Date, cap: number) {
  // Read lazily, newest activity first, from one index range per project (item_open_thread) and
  // counted apart: only the threads that fit the cap are read, of however many are open. The
  // store orders activity as binary text, which for the log's ISO instants is byRecency's
  // order; a run of one activity is put in byProjectThenId's order (projects
  // in locale order, ids in code-unit order).
  const total = items.openThreadCount(projects);
  const order = (a: ItemActivityRow, b: ItemActivityRow) =>
    byRecency(activityOf(a), activityOf(b)) || byProjectThenId(a, b);
  const rows = tiesSorted(
    orderedMerge(
      projects.map((project) => items.openThreadsByActivity(project)),
      order,
    ),
    (a, b) => byRecency(activityOf(a), activityOf(b)) === 0,
    order,
  );
  const shown = fittingPrefix(
    mapped(rows, (row) => {
      // A thread carries no TTL or review date: only its open marker is read.
      const { open_marker } = freshnessViewOf(
        { ...row, valid_until: null, review_after: null },
        now,
      );
      return open_marker === null ? slimOfRow(row) : { ...slimOfRow(row), open_marker };
    }),
    cap,
  );
  return { items: shown, total, omitted: total - shown.length, bytes: listBytes(shown), cap };
}

function reminders({ projects, items }: ReachableItems, now: Date, cap: number) {
  const horizon = new Date(now.getTime() + REMINDER_WINDOW_DAYS * DAY_MS).toISOString();
  // Overdue reminders that are still open are listed too (first): due is not a window's start.
  // Read lazily and counted apart: each project's due range is read in remind_at, id order
  // (item_due_reminder), merged by remind_at (binary), project, id; only the entries that fit
  // the cap are read, plus one a project, of thousands due.
  const total = items.dueReminderCount(projects, horizon);
  const shown = fittingPrefix(
    mapped(
      orderedMerge(
        projects.map((project) => items.dueReminders(project, horizon)),
        (a, b) => binary(a.remind_at, b.remind_at) || byProjectThenId(a, b),
      ),
      (i) => ({
        id: i.id,
        project: i.project,
        summary: oneLine(i.summary),
        status: i.status!,
        remind_at: i.remind_at,
      }),
    ),
    cap,
  );
  return { items: shown, total, omitted: total - shown.length, bytes: listBytes(shown), cap };
}

function* mapped<T, U>(rows: Iterable<T>, map: (row: T) => U): Generator<U> {
  for (const row of rows) yield map(row);
}

/** Most used first, then alphabetical (seed 000 §5.1). */
function tags({ projects, items }: ReachableItems, cap: number) {
  const rows = items
    .tagCounts(projects)
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  return section(rows, cap);
}

function projectCounts(names: readonly string[], { projects, items }: ReachableItems, cap: number) {
  const counts = new Map(items.liveCounts(projects).map((r) => [r.project, r.items]));
  const rows = names
    .map((project) => ({ project, items: counts.get(project) ?? 0 }))
    .sort((a, b) => b.items - a.items || a.project.localeCompare(b.project));
  return section(rows, cap);
}

/**
 * `orient` (T0): one bounded read at session start, byte-identical for fixed data and clock.
 * Read from the SQLite item projection, and against the caller's recall clock (MEM_NOW) unless
 * the input names one, as freshness is.
 */
export async function orient(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof orientInput>,
): Promise<Orientation> {
  if (input.project !== undefined) requireReach(caller, input.project);
  const now = input.now !== undefined ? new Date(input.now) : ctx.recallNow();
  const budget = orientBudget(ctx);
  const named = input.project !== undefined ? [input.project] : undefined;
  // Settled: every section of one orientation is read from one state of the store, never the
  // rules of one and the threads of the next another process's catch-up or rebuild wrote.
  return settledItems(ctx, caller, named, async (reach) => {
    const names = named ?? (await visibleNames(ctx, caller, reach));
    const { rows: ruleRows, ...rules } = alwaysLoaded(reach, 'rule', budget.rules);
    const { rows: factRows, ...facts } = alwaysLoaded(reach, 'fact', budget.facts);
    const warnings = await deliveredKnowledgeWarnings(
      [...ruleRows, ...factRows],
      now,
      citingScope(ctx.engine.paths),
    );
    return {
      rules,
      facts,
      threads: threads(reach, now, budget.threads),
      reminders: reminders(reach, now, budget.reminders),
      projects: projectCounts(names, reach, budget.projects),
      tags: tags(reach, budget.tags),
      review: reviewPointers(reach, budget.review),
      now: now.toISOString(),
      window_days: REMINDER_WINDOW_DAYS,
      ...boundedWarnings(warnings),
    };
  });
}

/**
 * Orient delivers every rule and fact, so each one not plainly fresh is warned about as
 * delivered. Knowledge is never an open question: it has no opening.
 */
async function visibleNames(
  ctx: RegistryContext,
  caller: Caller,
  reach: ReachableItems,
): Promise<string[]> {
  const names = new Set(await visibleProjects(ctx, caller, reach.view));
  for (const project of reach.projects) names.add(project);
  return [...names];
}
