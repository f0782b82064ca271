import { z } from 'zod';
import {
  fieldApplies,
  inapplicableDetails,
  inapplicableMessage,
  type InapplicableDetails,
  ITEM_FIELDS,
  itemIdField,
  tagField,
  type ItemType,
} from './model.js';
import { creatableStatuses, type ItemStatus } from './status.js';
import {
  detailField,
  isoTimeField,
  sourceSha256Field,
  sourceUriField,
  summaryField,
} from './model.js';
import { itemStatusField } from './status.js';

/** The fields of a new item beside its type: what `item_added` carries and add_items takes. */
export const itemFieldsShape = {
  summary: summaryField,
  detail: detailField.optional(),
  tags: z.array(tagField).max(32, 'expected at most 32 tags').optional(),
  status: itemStatusField.optional(),
  due: isoTimeField.optional(),
  remind_at: isoTimeField.optional(),
  valid_until: isoTimeField.optional(),
  review_after: isoTimeField.optional(),
  source_uri: sourceUriField.optional(),
  source_sha256: sourceSha256Field.optional(),
  parent: itemIdField.optional(),
  anchors: z.array(itemIdField).max(32, 'expected at most 32 anchors').optional(),
};

export interface ItemIssue {
  path: string[];
  message: string;
  /** What the refusal carries beside its field, where the issue has more to say (a field that does not apply). */
  details?: InapplicableDetails;
}

type DraftFields = { [K in keyof typeof itemFieldsShape]?: unknown };

export interface DraftOptions {
  /**
   * A writer's draft, whose citation's digest the registry reads from the file when not given:
   * a source_uri alone passes here (the registry refuses one that is not a local file). An
   * event always carries both.
   */
  digestLater?: boolean;
}

/**
 * What is wrong with a new item of `type` beyond each field's own shape: a field that does not
 * apply to the type, a missing `remind_at` on a reminder, a status it cannot start in, tags or
 * anchors given twice. Pure, so the event catalogue and the registry refuse the same things.
 */
export function itemDraftIssues(
  type: ItemType,
  fields: DraftFields,
  options: DraftOptions = {},
): ItemIssue[] {
  const issues: ItemIssue[] = [];
  for (const field of ITEM_FIELDS) {
    if (fields[field] !== undefined && !fieldApplies(field, type))
      issues.push({
        path: [field],
        message: inapplicableMessage(field, type),
        details: inapplicableDetails(field, type),
      });
  }
  if (type === 'reminder' && fields.remind_at === undefined)
    issues.push({
      path: ['remind_at'],
      message: 'missing, expected an ISO-8601 time: a reminder is a time trigger',
    });
  // A citation is a path and the digest it had: one without the other cannot be checked.
  const unpaired = options.digestLater
    ? fields.source_uri === undefined && fields.source_sha256 !== undefined
    : (fields.source_uri === undefined) !== (fields.source_sha256 === undefined);
  if (fieldApplies('source_uri', type) && unpaired)
    issues.push({
      path: [fields.source_uri === undefined ? 'source_uri' : 'source_sha256'],
      message:
        'expected source_uri and source_sha256 together: a cited source is checked against its digest',
    });
  const status = fields.status as ItemStatus | undefined;
  if (
    status !== undefined &&
    fieldApplies('status', type) &&
    !creatableStatuses(type).includes(status)
  )
    issues.push({
      path: ['status'],
      message: `a new ${type} starts in one of ${creatableStatuses(type).join(', ')}; resolve it to set ${status}`,
    });
  for (const list of ['tags', 'anchors'] as const) {
    const values = fields[list] as string[] | undefined;
    if (values && new Set(values).size !== values.length)
      issues.push({ path: [list], message: `expected each of ${list} once` });
  }
  return issues;
}
