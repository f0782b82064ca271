import { z } from 'zod';
import { sha256Field } from './fields.js';
import { itemFieldsShape } from '../items/draft.js';
import { itemIdField, itemReasonField, itemTypeField } from '../items/model.js';
import { resolvedStatusField, itemStatusField } from '../items/status.js';
import {
  isoTimeField,
  sourceSha256Field,
  sourceUriField,
  summaryField,
  detailField,
  tagField,
} from '../items/model.js';

/*
 * Curated knowledge events (DESIGN §4, seed 000 §4). Who did it is the envelope's writer
 * (principal and token label), as for corrections; the payload says why. An item's id is not
 * carried: it is derived from its item_added event's project and seq (items/model.ts itemId),
 * so every later event names it and a rebuild gives it the same id.
 */

/**
 * The extracted memory line a fact or rule was promoted from (issue 13 §1, `mem remember
 * --from-line`): the line's sha and level, the live memory and vault note that held it, and
 * what the line itself cites. Provenance only: the line stays, and a later forget of it does
 * not delete the item (a person decided to keep the knowledge).
 */
export const fromLineField = z.strictObject({
  sha256: sha256Field,
  level: z.enum(['L1', 'L2']),
  memory: sha256Field,
  note: z.string().min(1).max(1024),
  citations: z.array(z.strictObject({ level: z.enum(['L0', 'L1']), sha256: sha256Field })).max(256),
});
export type FromLine = z.infer<typeof fromLineField>;

export const itemAddedShape = {
  item_type: itemTypeField,
  ...itemFieldsShape,
  /** Only on a fact or rule: the memory line it was promoted from. */
  from_line: fromLineField.optional(),
  reason: itemReasonField.optional(),
};

/** Fields an update sets; the item's type decides which apply (checked by the registry). */
export const itemUpdatedShape = {
  item: itemIdField,
  summary: summaryField.optional(),
  detail: detailField.optional(),
  tags: z.array(tagField).max(32).optional(),
  status: itemStatusField.optional(),
  due: isoTimeField.optional(),
  remind_at: isoTimeField.optional(),
  valid_until: isoTimeField.optional(),
  /** A new review date; a confirmation (confirm_item) moves it past the caller's clock. */
  review_after: isoTimeField.optional(),
  source_uri: sourceUriField.optional(),
  source_sha256: sourceSha256Field.optional(),
  reason: itemReasonField,
};

export const itemResolvedShape = {
  item: itemIdField,
  /** The status before: the ledger can tell what resolving changed without replaying. */
  from: itemStatusField,
  status: resolvedStatusField,
  reason: itemReasonField.optional(),
};

export const RELATIONS = ['parent', 'anchor', 'blocked_by', 'link'] as const;
export const relationField = z.enum(RELATIONS);
export type Relation = z.infer<typeof relationField>;

/** `item` → `target`: a parent is the target, an anchor's target is the work it is about, a blocked item waits on the target. */
export const itemRelatedShape = {
  item: itemIdField,
  relation: relationField,
  target: itemIdField,
  reason: itemReasonField.optional(),
};

export const itemUnrelatedShape = {
  item: itemIdField,
  relation: relationField,
  target: itemIdField,
  reason: itemReasonField,
};

/** A soft delete (admin): a flag beside the status. A cascade is one event per item. */
export const itemDeletedShape = {
  item: itemIdField,
  reason: itemReasonField,
};

/**
 * How much of the working context an item may occupy (seed 004, issue 13 §5): `active` (the
 * default) leads, `reference` stays recallable, `archive` leaves default recall and is found only
 * when asked. Says nothing about whether the item is true.
 */
export const ATTENTION_TIERS = ['active', 'reference', 'archive'] as const;
export const attentionField = z.enum(ATTENTION_TIERS);
export type AttentionTier = z.infer<typeof attentionField>;

/** The item's attention tier from now on. No activity: recency is not moved by it. */
export const itemAttentionSetShape = {
  item: itemIdField,
  attention: attentionField,
  reason: itemReasonField.optional(),
};

/** A pin puts the item first within its relevance band (never above a stronger match). */
export const itemPinnedShape = {
  item: itemIdField,
  reason: itemReasonField.optional(),
};

export const itemUnpinnedShape = {
  item: itemIdField,
  reason: itemReasonField.optional(),
};

/** The most characters one log entry on an item holds (add_log refuses longer, naming this cap). */
export const MAX_ITEM_LOG_CHARS = 4_000;

/** What an `add_log` appends to an item's history: a note of progress, never a change of its fields. */
export const itemLogTextField = z
  .string()
  .trim()
  .min(1, 'expected a non-empty log text')
  .max(MAX_ITEM_LOG_CHARS, `expected a log text of at most ${MAX_ITEM_LOG_CHARS} characters`);

/**
 * The conversation a log entry was written in (seed 000 §6.3): a label the client chooses, an
 * opaque string mem never interprets or checks against a registry.
 */
export const conversationLabelField = z
  .string()
  .trim()
  .min(1, 'expected a non-empty conversation label')
  .max(200, 'expected a conversation label of at most 200 characters');

/**
 * A history entry on an item (seed 000 §6 `add_log`): the item's fields stay as they are, but it
 * is activity, so the item's last activity (and its tree's, up the parent chain) moves. Who wrote
 * it is the envelope's writer, as for every item event.
 */
export const itemLoggedShape = {
  item: itemIdField,
  text: itemLogTextField,
  conversation: conversationLabelField.optional(),
  reason: itemReasonField.optional(),
};
