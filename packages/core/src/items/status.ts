import { z } from 'zod';
import { MemError } from '../errors.js';
import type { ItemType } from './model.js';

/*
 * Status machines per work type (seed 000 §4.5). `blocked` is a relation, not a status;
 * archived and deleted are flags beside the status, never values in it. `dropped` is not
 * `done`: abandoning work and finishing it are different facts about the past.
 */

export const ITEM_STATUSES = ['proposed', 'open', 'in_progress', 'done', 'dropped'] as const;
export const itemStatusField = z.enum(ITEM_STATUSES);
export type ItemStatus = z.infer<typeof itemStatusField>;

/** The terminal statuses: what resolving an item sets. */
export const RESOLVED_STATUSES = ['done', 'dropped'] as const satisfies readonly ItemStatus[];
export const resolvedStatusField = z.enum(RESOLVED_STATUSES);
export type ResolvedStatus = z.infer<typeof resolvedStatusField>;

type WorkType = Exclude<ItemType, 'rule' | 'fact'>;

/** Each work type's statuses and the moves between them; done and dropped are terminal. */
const MACHINES: Record<
  WorkType,
  { initial: ItemStatus; moves: Partial<Record<ItemStatus, readonly ItemStatus[]>> }
> = {
  task: {
    initial: 'open',
    moves: {
      proposed: ['open', 'in_progress', 'done', 'dropped'],
      open: ['proposed', 'in_progress', 'done', 'dropped'],
      in_progress: ['open', 'done', 'dropped'],
      done: [],
      dropped: [],
    },
  },
  thread: { initial: 'open', moves: { open: ['done', 'dropped'], done: [], dropped: [] } },
  reminder: { initial: 'open', moves: { open: ['done', 'dropped'], done: [], dropped: [] } },
};

/** The statuses a work type has (undefined for knowledge, which has none). */
export function statusesOf(type: ItemType): readonly ItemStatus[] | undefined {
  const machine = MACHINES[type as WorkType];
  return machine ? (Object.keys(machine.moves) as ItemStatus[]) : undefined;
}

/** The status a new work item starts in when none is given; null for knowledge. */
export function initialStatus(type: ItemType): ItemStatus | null {
  return MACHINES[type as WorkType]?.initial ?? null;
}

/** The statuses an item may be created in: any non-terminal one of its type. */
export function creatableStatuses(type: ItemType): readonly ItemStatus[] {
  return (statusesOf(type) ?? []).filter((s) => !isResolved(s));
}

export function isResolved(status: ItemStatus | null): boolean {
  return status === 'done' || status === 'dropped';
}

/**
 * CONFLICT unless `type` may move from `from` to `to`; names the item, both statuses and the
 * moves that are allowed. Staying put is not a move: callers treat it as already done.
 */
/**
 * INVALID_INPUT unless `status` is one `type` has: knowledge has none, a work type its machine's.
 * `details` (the item's id, for a write) joins the error's; `hint` ends the knowledge message.
 * Shared by a transition and a find's status filter, so both refuse alike.
 */
export function requireStatusOf(
  type: ItemType,
  status: ItemStatus,
  details: Record<string, unknown> = {},
  hint = '',
): void {
  const statuses = statusesOf(type);
  if (statuses === undefined)
    throw new MemError(
      'INVALID_INPUT',
      `status does not apply to a ${type}: knowledge has no status${hint}`,
      { field: 'status', ...details, type },
    );
  if (!statuses.includes(status))
    throw new MemError(
      'INVALID_INPUT',
      `status: a ${type} has no status ${JSON.stringify(status)}; expected one of ${statuses.join(', ')}`,
      { field: 'status', ...details, type, expected: [...statuses] },
    );
}

export function requireTransition(
  id: string,
  type: ItemType,
  from: ItemStatus | null,
  to: ItemStatus,
): void {
  requireStatusOf(type, to, { id });
  // requireStatusOf refused knowledge: a work type has its machine, and a work item a status.
  const machine = MACHINES[type as WorkType];
  const allowed = from === null ? [] : (machine.moves[from] ?? []);
  if (!allowed.includes(to)) {
    throw new MemError(
      'CONFLICT',
      `${id}: a ${type} cannot move from ${from} to ${to}${allowed.length === 0 ? ` (${from} is terminal)` : `; from ${from} it may move to ${allowed.join(', ')}`}`,
      {
        id,
        type,
        status: from,
        requested: to,
        allowed,
      },
    );
  }
}
