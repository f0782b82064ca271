export {
  FIELD_TYPES,
  ITEM_FIELDS,
  ITEM_TYPES,
  KNOWLEDGE_TYPES,
  WORK_TYPES,
  fieldApplies,
  inapplicableMessage,
  isKnowledge,
  itemId,
  itemIdField,
  itemReasonField,
  itemTypeField,
  tagField,
  isoTimeField,
  isoTimeInputField,
  dayStart,
  sourceSha256Field,
  sourceUriField,
  summaryField,
  detailField,
  type ItemField,
  type ItemType,
} from './model.js';
export {
  ITEM_STATUSES,
  RESOLVED_STATUSES,
  creatableStatuses,
  initialStatus,
  isResolved,
  itemStatusField,
  requireTransition,
  resolvedStatusField,
  statusesOf,
  requireStatusOf,
  type ItemStatus,
  type ResolvedStatus,
} from './status.js';
export { itemDraftIssues, itemFieldsShape, type ItemIssue } from './draft.js';
export { truncateUtf8, utf8Bytes } from './utf8.js';
export {
  DEFAULT_ORIENT_BUDGET,
  DEFAULT_ORIENT_BUDGET_TEXT,
  ORIENT_SECTIONS,
  orientBudgetSchema,
  type OrientBudget,
  type OrientSection,
} from './orient-budget.js';
export { citedDirectoriesField, citedDirectoryField } from './cites.js';
