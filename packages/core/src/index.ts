export {
  ERROR_CODES,
  MemError,
  hasErrorCode,
  isMemError,
  unreadableFileCode,
  type ErrorCode,
} from './errors.js';
export { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from './file-modes.js';
export { ioError, isNoSpaceErrno } from './io-error.js';
export { createPrivateFile, makePrivateDirectory } from './private-fs.js';
export { fsyncDirectory, fsyncPath } from './durable-sync.js';
export { contentSha256, genesisHash, normalizeText, sha256Hex } from './identity.js';
export { seededRandom } from './random.js';
export { scrubSecrets, type ScrubResult } from './scrub/scrub.js';
export { SYSTEM_PROJECT, assertProjectName, projectNameSchema } from './project.js';
export { levelField, queryIdField, sha256Field, type Level } from './events/fields.js';
export { writerSchema, type Writer } from './events/envelope.js';
export {
  EVENT_DEFINITIONS,
  EVENT_TYPES,
  eventDefinition,
  currentVersion,
  eventKeyOrder,
  eventSchema,
  isEventType,
  payloadSchema,
  type EventOf,
  type EventType,
  type LogEvent,
  type Payload,
  type PayloadOf,
} from './events/catalogue.js';
export { renderEventCatalogue, type EventReaders } from './events/catalogue-doc.js';
export { EVENT_SUMMARIES } from './events/summaries.js';
export {
  lineSignatureField,
  memoryLineField,
  memoryLines,
  memoryLinesIssues,
  splitMemoryLines,
  uniformLines,
  withoutMemoryLines,
  type LineSignature,
  type MemoryLine,
  type MemoryLineRef,
} from './events/memory-lines.js';
export { copiedText, synthesisPrefix } from './events/synthesis-copy.js';
export { lineTokens, nearDuplicate, nearDuplicateTokens } from './events/near-duplicate.js';
export { hasPurgeMarker, purgeMarker } from './events/purge-payloads.js';
export { parseEvent, parsePayload, type InputLocation } from './events/parse.js';
export { issueField, issueValue } from './zod-issues.js';
export { codePointName, refusedControl, terminalSafe } from './terminal-text.js';
export { lfLineEnds, refuseControlText } from './refuse-control-text.js';
export { serializeEvent } from './events/serialize.js';
export {
  CAPABILITIES,
  capabilityField,
  principalNameField,
  tokenIdField,
  tokenLabelField,
  tokenProjectsField,
  type Capability,
} from './events/admin-payloads.js';
export { ingestIdField, ingestRecordField, jobIdField } from './events/ingest-payloads.js';
export { termHashField, targetKindField } from './events/correction-payloads.js';
export { reviewDecisionField, reviewKindField } from './events/review-payloads.js';
export { reviewId } from './events/review-id.js';
export { skillNameField } from './events/skill-payloads.js';
export { corpusNameField } from './events/corpus-payloads.js';
export {
  ATTENTION_TIERS,
  RELATIONS,
  attentionField,
  conversationLabelField,
  fromLineField,
  itemLogTextField,
  MAX_ITEM_LOG_CHARS,
  type FromLine,
  relationField,
  type AttentionTier,
  type Relation,
} from './events/item-payloads.js';
export {
  FIELD_TYPES,
  ITEM_FIELDS,
  ITEM_STATUSES,
  ITEM_TYPES,
  KNOWLEDGE_TYPES,
  RESOLVED_STATUSES,
  WORK_TYPES,
  creatableStatuses,
  fieldApplies,
  inapplicableDetails,
  inapplicableMessage,
  type InapplicableDetails,
  initialStatus,
  isKnowledge,
  isResolved,
  itemDraftIssues,
  itemFieldsShape,
  itemId,
  itemIdField,
  itemReasonField,
  itemStatusField,
  itemTypeField,
  isoTimeField,
  isoTimeInputField,
  dayStart,
  sourceSha256Field,
  sourceUriField,
  summaryField,
  tagField,
  requireTransition,
  resolvedStatusField,
  statusesOf,
  requireStatusOf,
  type ItemField,
  type ItemIssue,
  type ItemStatus,
  type ItemType,
  type ResolvedStatus,
  DEFAULT_ORIENT_BUDGET,
  DEFAULT_ORIENT_BUDGET_TEXT,
  ORIENT_SECTIONS,
  orientBudgetSchema,
  truncateUtf8,
  utf8Bytes,
  type OrientBudget,
  type OrientSection,
  citedDirectoriesField,
  citedDirectoryField,
} from './items/index.js';
export {
  NEXT_ACTION,
  OPEN_MAX_DAYS,
  freshnessOf,
  heldBack,
  openMarker,
  type Freshness,
  type FreshnessInputs,
  type FreshnessReason,
  type FreshnessState,
  type NextAction,
  type SourceCheck,
} from './freshness/index.js';
export { KeyedSerial } from './keyed-serial.js';
export {
  CONFIG_VARIABLES,
  FUSION_SIGNALS,
  fusionWeightsSchema,
  type ConfigVariable,
  type ConfigVariableName,
  type FusionSignal,
} from './config/variables.js';
export { loadConfig, type ConfigFlags, type MemConfig } from './config/load-config.js';
export { renderConfigTable } from './config/config-table.js';
export {
  lineSignatures,
  normalizeSignature,
  toolOf,
  SIGNATURE_LINE_CAP,
  type FailureSignature,
} from './signature/normalise.js';
export {
  logSignatures,
  readFailingResult,
  salientLines,
  toolResultSignatures,
  type FailingResult,
} from './signature/tool-result.js';
