import { z } from 'zod';
import { sha256Hex } from '../identity.js';

/*
 * Curated items (seed 000 §4): five types in one model. Type carries force — a rule is obeyed,
 * a fact informs — and work types carry state. A field earns a place only where some behaviour
 * reads it, so each field applies to the types listed in FIELD_TYPES and is refused on the rest.
 */

export const ITEM_TYPES = ['rule', 'fact', 'task', 'thread', 'reminder'] as const;
export const itemTypeField = z.enum(ITEM_TYPES);
export type ItemType = z.infer<typeof itemTypeField>;

/** Knowledge (rule, fact) has no status; work items (task, thread, reminder) do. */
export const KNOWLEDGE_TYPES = ['rule', 'fact'] as const satisfies readonly ItemType[];
export const WORK_TYPES = ['task', 'thread', 'reminder'] as const satisfies readonly ItemType[];

export function isKnowledge(type: ItemType): boolean {
  return (KNOWLEDGE_TYPES as readonly string[]).includes(type);
}

/**
 * Every optional item field and the types it applies to. Trigger: a field given for a type it
 * does not apply to (`due` on a rule, `valid_until` on a task). Why: silently storing it yields
 * rows whose fields look meaningful and are not (seed 000 §4.7). Outcome: refused, naming both.
 */
export const FIELD_TYPES = {
  /** Prose detail. Refused on a rule: a rule is its one binding sentence, nothing to weigh beside it. */
  detail: ['fact', 'task', 'thread', 'reminder'],
  tags: ITEM_TYPES,
  status: WORK_TYPES,
  /** When a task is due. */
  due: ['task'],
  /** When a reminder fires: its one behaviour, so it is required there. */
  remind_at: ['reminder'],
  /** When knowledge stops holding; expiry is derived on read, never a stored status. */
  valid_until: KNOWLEDGE_TYPES,
  /** When knowledge is due a person's review (seed 004 review_due_at): past it, stale until confirmed. */
  review_after: KNOWLEDGE_TYPES,
  /** What knowledge was read from: a local path or URI, with the sha256 of its bytes when written. */
  source_uri: KNOWLEDGE_TYPES,
  source_sha256: KNOWLEDGE_TYPES,
  /** A tree of work: single parent, work items only. */
  parent: WORK_TYPES,
  /** What knowledge is about: work items, many-to-many. */
  anchors: KNOWLEDGE_TYPES,
} as const satisfies Record<string, readonly ItemType[]>;

export type ItemField = keyof typeof FIELD_TYPES;
export const ITEM_FIELDS = Object.keys(FIELD_TYPES) as ItemField[];

/** True when `field` may be set on an item of `type`. */
export function fieldApplies(field: ItemField, type: ItemType): boolean {
  return (FIELD_TYPES[field] as readonly string[]).includes(type);
}

/** The explanation a refusal carries: which types the field applies to. */
export function inapplicableMessage(field: ItemField, type: ItemType): string {
  return `${field} does not apply to a ${type}: it applies to ${FIELD_TYPES[field].join(', ')} only`;
}

/** What an inapplicable-field refusal carries beside its field (inapplicableDetails). */
export interface InapplicableDetails {
  expected: string;
  type: ItemType;
  applies_to: ItemType[];
}

/**
 * The details of an inapplicable-field refusal beside its field: the same on every write that
 * takes item fields (add_items, remember, update_item). Trigger: remember carried `expected`
 * and update_item `type` (the stop-34 walk). Outcome: both, and the types it applies to.
 */
export function inapplicableDetails(field: ItemField, type: ItemType): InapplicableDetails {
  return { expected: `absent on a ${type}`, type, applies_to: [...FIELD_TYPES[field]] };
}

/**
 * An item id: `it-` and 12 hex of sha256(project NUL seq of its item_added event). Derived from
 * the event, never random, so a rebuild assigns every item the id its writer returned.
 */
export function itemId(project: string, seq: number): string {
  return `it-${sha256Hex(`${project}\u0000${seq}`).slice(0, 12)}`;
}

export const itemIdField = z
  .string()
  .regex(/^it-[0-9a-f]{12}$/, 'expected an item id: "it-" and 12 lowercase hex characters');

export const summaryField = z
  .string()
  .trim()
  .min(1, 'expected a non-empty summary')
  .max(500, 'expected a summary of at most 500 characters');
export const detailField = z.string().trim().min(1).max(20_000);
export const tagField = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._/-]{0,63}$/, 'expected a tag: 1-64 of [a-z0-9._/-], lowercase');
export const isoTimeField = z.iso.datetime({
  offset: false,
  message: 'expected an ISO-8601 UTC timestamp such as 2026-01-31T09:00:00Z',
});
const isoTimeInputMessage =
  'expected an ISO-8601 UTC timestamp such as 2026-01-31T09:00:00Z, or a date such as 2026-01-31 (its start: 00:00 UTC)';
/**
 * An instant as a writer types it (operation inputs: due, remind_at, valid_until, review_after,
 * orient's now): an ISO-8601 UTC timestamp, or a calendar date alone, which means that day's
 * start in UTC (`2026-12-24` → `2026-12-24T00:00:00Z`). Why: people type dates; the stored
 * form (isoTimeField, every event) is always the full instant, so the log and every projection
 * compare one shape. A date that does not exist (`2026-02-30`) is refused like any bad value.
 * One pattern, not a union of zod's two formats: the MCP items tool's schema repeats each field.
 */
/**
 * A calendar date alone (`2026-12-24`) as the instant it means, the start of that day in UTC
 * (`2026-12-24T00:00:00Z`); any other value unchanged, for the caller's own check. The one rule
 * every time input shares: item fields (isoTimeInputField), `--as-of` and a token's `--expires`.
 */
export function dayStart(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
}
export const isoTimeInputField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?$/, isoTimeInputMessage)
  .transform((value, ctx) => {
    const instant = dayStart(value);
    if (isoTimeField.safeParse(instant).success) return instant;
    ctx.addIssue({ code: 'custom', message: isoTimeInputMessage });
    return z.NEVER;
  });
/**
 * A cited source: a local path (relative to the data root, or absolute or a `file:` URI inside
 * it; the registry refuses one that leaves it, source-check.ts) or another URI.
 */
export const sourceUriField = z
  .string()
  .trim()
  .min(1, 'expected a path or URI')
  .max(2_000, 'expected a path or URI of at most 2000 characters');
/** The sha256 of a cited source's bytes at write time. */
export const sourceSha256Field = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'expected a sha256 digest: 64 lowercase hex characters');
export const itemReasonField = z.string().trim().min(1, 'expected a non-empty reason').max(2_000);
