import { z } from 'zod';
import { DEFAULT_ORIENT_BUDGET, isResolved, isoTimeField, type OrientBudget } from '@mem/core';
import { requireReach, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import { visibleProjects } from '../reach.js';
import { reachableLedgers } from './find.js';
import type { ItemLedger, ItemState } from './ledger.js';
import {
  fitting,
  knowledgeEntry,
  byRecency,
  knowledgeShape,
  lastActivity,
  listBytes,
  oneLine,
  slimOf,
  slimShape,
} from './slim.js';

/** Reminders due inside this window from the caller's clock are listed (seed 000 §5.1). */
export const REMINDER_WINDOW_DAYS = 14;
const DAY_MS = 86_400_000;

export const orientInput = z.strictObject({
  project: projectInput.optional(),
  /** The caller's clock: the reminder window is relative to it, never to the server's. */
  now: isoTimeField.optional(),
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
  now: z.string(),
  window_days: z.number(),
});
export type Orientation = z.infer<typeof orientOut>;

export function orientBudget(ctx: RegistryContext): OrientBudget {
  return ctx.config.MEM_ORIENT_BUDGET ?? DEFAULT_ORIENT_BUDGET;
}

/** Live rules or facts with no anchor: the always-loaded set, oldest first. */
export function unanchored(ledger: ItemLedger, type: 'rule' | 'fact'): ItemState[] {
  return [...ledger.items.values()]
    .filter((i) => !i.deleted && i.type === type && i.anchors.length === 0)
    .sort((a, b) => a.created_seq - b.created_seq);
}

const byProjectThenId = (a: { project: string; id: string }, b: { project: string; id: string }) =>
  a.project.localeCompare(b.project) || a.id.localeCompare(b.id);

function section<T>(entries: readonly T[], cap: number) {
  const { items, omitted } = fitting(entries, cap);
  return { items, total: entries.length, omitted, bytes: listBytes(items), cap };
}

/**
 * Rules and facts are never cut here: the write cap keeps each project's set within its
 * allowance, and silently dropping a binding rule is what the cap exists to prevent. A reader
 * of N projects gets up to N allowances, so the section's cap is that sum.
 */
function alwaysLoaded(ledgers: readonly ItemLedger[], type: 'rule' | 'fact', perProject: number) {
  const items = ledgers.flatMap((l) => unanchored(l, type).map(knowledgeEntry));
  return { items, bytes: listBytes(items), cap: perProject * Math.max(1, ledgers.length) };
}

function threads(ledgers: readonly ItemLedger[], cap: number) {
  const rows = ledgers.flatMap((l) =>
    [...l.items.values()]
      .filter((i) => !i.deleted && i.type === 'thread' && !isResolved(i.status))
      .map((i) => ({ slim: slimOf(l, i), activity: lastActivity(l, i) })),
  );
  rows.sort((a, b) => byRecency(a.activity, b.activity) || byProjectThenId(a.slim, b.slim));
  return section(
    rows.map((r) => r.slim),
    cap,
  );
}

function reminders(ledgers: readonly ItemLedger[], now: Date, cap: number) {
  const horizon = new Date(now.getTime() + REMINDER_WINDOW_DAYS * DAY_MS).toISOString();
  // Overdue reminders that are still open are listed too (first): due is not a window's start.
  const due = ledgers
    .flatMap((l) => [...l.items.values()])
    .filter(
      (i) =>
        !i.deleted &&
        i.type === 'reminder' &&
        !isResolved(i.status) &&
        i.remind_at !== null &&
        i.remind_at <= horizon,
    )
    .sort((a, b) => a.remind_at!.localeCompare(b.remind_at!) || byProjectThenId(a, b))
    .map((i) => ({
      id: i.id,
      project: i.project,
      summary: oneLine(i.summary),
      status: i.status!,
      remind_at: i.remind_at!,
    }));
  return section(due, cap);
}

function live(ledger: ItemLedger): ItemState[] {
  return [...ledger.items.values()].filter((i) => !i.deleted);
}

/** Most used first, then alphabetical (seed 000 §5.1). */
function tags(ledgers: readonly ItemLedger[], cap: number) {
  const counts = new Map<string, number>();
  for (const item of ledgers.flatMap(live))
    for (const tag of item.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const rows = [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  return section(rows, cap);
}

function projects(names: readonly string[], ledgers: readonly ItemLedger[], cap: number) {
  const counts = new Map(ledgers.map((l) => [l.project, live(l).length]));
  const rows = names
    .map((project) => ({ project, items: counts.get(project) ?? 0 }))
    .sort((a, b) => b.items - a.items || a.project.localeCompare(b.project));
  return section(rows, cap);
}

/** `orient` (T0): one bounded read at session start, byte-identical for fixed data and clock. */
export async function orient(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof orientInput>,
): Promise<Orientation> {
  if (input.project !== undefined) requireReach(caller, input.project);
  const now = input.now !== undefined ? new Date(input.now) : ctx.now();
  const budget = orientBudget(ctx);
  const ledgers = await reachableLedgers(
    ctx,
    caller,
    input.project !== undefined ? [input.project] : undefined,
  );
  const names =
    input.project !== undefined ? [input.project] : await visibleNames(ctx, caller, ledgers);
  return {
    rules: alwaysLoaded(ledgers, 'rule', budget.rules),
    facts: alwaysLoaded(ledgers, 'fact', budget.facts),
    threads: threads(ledgers, budget.threads),
    reminders: reminders(ledgers, now, budget.reminders),
    projects: projects(names, ledgers, budget.projects),
    tags: tags(ledgers, budget.tags),
    now: now.toISOString(),
    window_days: REMINDER_WINDOW_DAYS,
  };
}

async function visibleNames(
  ctx: RegistryContext,
  caller: Caller,
  ledgers: readonly ItemLedger[],
): Promise<string[]> {
  const names = new Set(await visibleProjects(ctx, caller, await ctx.stores.fresh()));
  for (const l of ledgers) names.add(l.project);
  return [...names];
}
