import { z } from 'zod';
import { ITEM_STATUSES, MemError, itemIdField, itemTypeField, tagField } from '@mem/core';
import { canReach, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import { visibleProjects } from '../reach.js';
import { readItemLedger, type ItemLedger, type ItemState } from './ledger.js';
import { itemView, viewOf } from './view.js';
import {
  MAX_FRESHNESS_WARNINGS,
  freshnessWarning,
  warningOf,
  type FreshnessWarning,
} from './freshness.js';

export const MAX_READ_IDS = 50;
export const MAX_FIND_LIMIT = 200;

export const readItemsInput = z.strictObject({
  ids: z
    .array(itemIdField)
    .min(1, 'expected at least one id')
    .max(MAX_READ_IDS, `expected at most ${MAX_READ_IDS} ids per call`),
  project: projectInput.optional(),
});

export const findItemsInput = z.strictObject({
  projects: z.array(projectInput).max(64).optional(),
  type: itemTypeField.optional(),
  status: z.enum(ITEM_STATUSES).optional(),
  parent: itemIdField.optional(),
  anchor: itemIdField.optional(),
  tag: tagField.optional(),
  query: z.string().trim().min(1).max(500).optional(),
  include_deleted: z.boolean().optional(),
  /** Deliver expired and stale items too (each still named in freshness_warnings). */
  include_stale: z.boolean().optional(),
  limit: z.int().min(1).max(MAX_FIND_LIMIT).optional(),
  offset: z.int().min(0).optional(),
});
type FindInput = z.infer<typeof findItemsInput>;

export const itemsOut = z.object({ items: z.array(itemView) });
export const foundOut = z.object({
  /** Every match in the reachable projects, however many are returned. */
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  truncated: z.boolean(),
  items: z.array(itemView),
  /**
   * Every match whose freshness is not plain (expired, stale, unknown), held back or delivered:
   * recall never leaves one out silently. Bounded; oldest first.
   */
  freshness_warnings: z.array(freshnessWarning),
  /** Warnings past MAX_FRESHNESS_WARNINGS, counted, not listed (absent: none). */
  freshness_warnings_left_out: z.number().optional(),
});

/** The item ledgers of the projects the caller reaches (the named ones, each checked), sorted by project. */
export async function reachableLedgers(
  ctx: RegistryContext,
  caller: Caller,
  named: readonly string[] | undefined,
): Promise<ItemLedger[]> {
  const view = await ctx.stores.fresh();
  const visible = await visibleProjects(ctx, caller, view);
  // Trigger: a named project the caller does not reach. Why: answering "none there" would tell an
  // outsider whether it holds items. Outcome: it counts as empty, as an unknown one does.
  const projects = named ? [...new Set(named)].filter((p) => canReach(caller, p)).sort() : visible;
  const known = new Set(await ctx.engine.projects());
  const ledgers: ItemLedger[] = [];
  for (const project of projects) {
    if (known.has(project)) ledgers.push(await readItemLedger(ctx, project));
  }
  return ledgers;
}

/** Every item of the projects the caller reaches, in log order per project. */
async function reachableItems(
  ctx: RegistryContext,
  caller: Caller,
  named: readonly string[] | undefined,
): Promise<ItemState[]> {
  return (await reachableLedgers(ctx, caller, named)).flatMap((l) => [...l.items.values()]);
}

/** T2: explicit ids, never filtered by status or by the deleted flag. An id out of reach is NOT_FOUND, like an unknown one. */
export async function readItems(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof readItemsInput>,
) {
  const byId = new Map(
    (await reachableItems(ctx, caller, input.project ? [input.project] : undefined)).map((i) => [
      i.id,
      i,
    ]),
  );
  return {
    items: input.ids.map((id, i) => {
      const item = byId.get(id);
      if (!item) throw notFound(id, i);
      return viewOf(item);
    }),
  };
}

function notFound(id: string, index: number): MemError {
  return new MemError(
    'NOT_FOUND',
    `ids[${index}]: no item ${id} in a project this caller reaches`,
    { field: `ids[${index}]`, id },
  );
}

/** Lowercased words of a keyword query: text, never syntax. */
function terms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

function matches(item: ItemState, input: FindInput, words: readonly string[]): boolean {
  if (item.deleted && input.include_deleted !== true) return false;
  if (input.type !== undefined && item.type !== input.type) return false;
  if (input.status !== undefined && item.status !== input.status) return false;
  if (input.parent !== undefined && item.parent !== input.parent) return false;
  if (input.anchor !== undefined && !item.anchors.includes(input.anchor)) return false;
  if (input.tag !== undefined && !item.tags.includes(input.tag)) return false;
  if (words.length === 0) return true;
  const text = `${item.summary}\n${item.detail ?? ''}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

/**
 * Filters and a keyword query over the reachable projects' items; an exact total on every page.
 * An expired or stale match is held back unless include_stale, and named either way in
 * freshness_warnings, its verdict read against the caller's clock (ctx.recallNow).
 */
export async function findItems(ctx: RegistryContext, caller: Caller, input: FindInput) {
  const words = input.query !== undefined ? terms(input.query) : [];
  const now = ctx.recallNow();
  const includeStale = input.include_stale === true;
  const warnings: FreshnessWarning[] = [];
  const all = (await reachableItems(ctx, caller, input.projects))
    .filter((item) => matches(item, input, words))
    .sort(
      (a, b) =>
        a.created_seq - b.created_seq ||
        a.project.localeCompare(b.project) ||
        a.id.localeCompare(b.id),
    )
    .filter((item) => {
      const warning = warningOf(item, now, includeStale);
      if (warning) warnings.push(warning);
      return warning === null || includeStale;
    });
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const page = all.slice(offset, offset + limit);
  const leftOut = warnings.length - MAX_FRESHNESS_WARNINGS;
  return {
    total: all.length,
    limit,
    offset,
    truncated: offset + page.length < all.length,
    items: page.map(viewOf),
    freshness_warnings: warnings.slice(0, MAX_FRESHNESS_WARNINGS),
    ...(leftOut > 0 ? { freshness_warnings_left_out: leftOut } : {}),
  };
}
