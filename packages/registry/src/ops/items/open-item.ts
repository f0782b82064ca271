import { z } from 'zod';
import { MemError, isResolved, itemIdField, itemStatusField } from '@mem/core';
import type { Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { projectInput } from '../schemas.js';
import type { ItemActivityRow, ItemRow } from '@mem/projector-sqlite';
import { settledItems } from './reachable-store.js';
import { activityOf, byRecency, oneLine, refShape, slimOfRow, slimShape } from './slim.js';
import { itemView, viewOfRow } from './view.js';
import {
  boundedWarnings,
  deliveredKnowledgeWarnings,
  freshnessView,
  freshnessViewOf,
  freshnessWarning,
} from './freshness.js';
import { checkSource, citingScope } from './source-check.js';

/** Children one `open` returns unless asked for fewer; a wide thread pages past it. */
export const DEFAULT_OPEN_CHILDREN = 50;
export const MAX_OPEN_CHILDREN = 200;

export const openItemInput = z.strictObject({
  id: itemIdField,
  project: projectInput.optional(),
  /** Children with this status instead of the open ones (an explicit override, seed 000 §5.3). */
  status: itemStatusField.optional(),
  limit: z.int().min(1).max(MAX_OPEN_CHILDREN).optional(),
});

export const openItemOut = z.object({
  item: itemView,
  /** The item's verdict at the caller's clock, its cited source re-read (issue 13 §4). */
  freshness: freshnessView,
  children: z.object({
    items: z.array(slimShape),
    /** Every child the filter keeps, however many are returned. */
    total: z.number(),
    omitted: z.number(),
  }),
  /** Anchored here, binding: listed before the facts. */
  rules: z.array(slimShape),
  facts: z.array(slimShape),
  links: z.array(refShape),
  /**
   * The anchored rules and facts above that are expired or past their review date at the
   * caller's clock: still listed (as orient lists them), never silently. Bounded;
   * `freshness_warnings_left_out` counts the rest.
   */
  freshness_warnings: z.array(freshnessWarning),
  freshness_warnings_left_out: z.number().optional(),
});

/**
 * `open` (T1): an item in full, its children (open ones unless a status is named) most recently
 * active first with an exact overflow count, the rules then facts anchored to it, links as refs.
 */
export async function openItem(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof openItemInput>,
) {
  const named = input.project !== undefined ? [input.project] : undefined;
  return settledItems(ctx, caller, named, async ({ projects, items }) => {
    // The first project in order holding it live answers (ids are per-project hashes).
    const item = items
      .itemsById(projects, [input.id])
      .filter((row) => !row.deleted)
      .sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0))[0];
    if (!item)
      throw new MemError(
        'NOT_FOUND',
        `id: no live item ${input.id} in a project this caller reaches`,
        {
          field: 'id',
          id: input.id,
        },
      );
    const keep = (c: ItemActivityRow) =>
      input.status !== undefined ? c.status === input.status : !isResolved(c.status);
    const children = items
      .children(item.project, item.id)
      .filter(keep)
      .sort((a, b) => byRecency(activityOf(a), activityOf(b)) || a.id.localeCompare(b.id));
    const shown = children.slice(0, input.limit ?? DEFAULT_OPEN_CHILDREN);
    const linked = new Map(
      items
        .itemsById([item.project], item.links)
        .filter((l) => !l.deleted)
        .map((l) => [l.id, l]),
    );
    // One scope for the item and its anchored knowledge: one answer.
    const scope = citingScope(ctx.engine.paths);
    const source = await checkSource(item, scope);
    const now = ctx.recallNow();
    const rules = items.anchoredTo(item.project, item.id, 'rule');
    const facts = items.anchoredTo(item.project, item.id, 'fact');
    const listed = [...rules, ...facts].map((k) => k.id);
    const full = new Map(items.itemsById([item.project], listed).map((k) => [k.id, k]));
    // T1 delivers every anchored rule and fact, as T0 its unanchored ones: each one past its
    // valid_until or review date, or whose cited source changed, is named as delivered, in the
    // order listed.
    const warnings = await deliveredKnowledgeWarnings(
      listed.map((id) => full.get(id)).filter((k): k is ItemRow => k !== undefined && !k.deleted),
      now,
      scope,
    );
    return {
      item: viewOfRow(item),
      freshness: freshnessViewOf(item, now, source),
      children: {
        items: shown.map(slimOfRow),
        total: children.length,
        omitted: children.length - shown.length,
      },
      rules: rules.map(slimOfRow),
      facts: facts.map(slimOfRow),
      links: item.links
        .map((id) => linked.get(id))
        .filter((l): l is ItemRow => l !== undefined)
        .map((l) => ({ id: l.id, summary: oneLine(l.summary) })),
      ...boundedWarnings(warnings),
    };
  });
}
