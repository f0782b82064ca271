export { projectorSqlite } from './projector.js';
export { itemStorePath } from './store-files.js';
export { canonicalBytes } from './canonical-bytes.js';
export { ftsIndexText, ftsPhrase } from './fts-text.js';
export { planEvent } from './plan.js';
export { ITEM_HANDLES } from './plan-items.js';
export { nodeId } from './node-id.js';
export type { ItemStoreHandle } from './handle.js';
export type { PlannedWrite, StatementName } from './planned-write.js';
export {
  openItemStore,
  type ItemStore,
  type NodeFilter,
  type OpenItemStoreOptions,
  type SearchOptions,
} from './item-store.js';
export type {
  CitedChunkRow,
  CitedNode,
  EdgeRow,
  GateCounts,
  FailureSignatureRow,
  ReviewFindingRow,
  IdempotencyKeyRow,
  LineEdgeRow,
  NodeLevel,
  NodeRow,
  PositionRow,
  RunRow,
  SupersessionRow,
  SearchHit,
} from './rows.js';
export type { KeywordRecallOptions } from './item-store.js';
export type { LineNoteRow } from './line-note-sql.js';
export type { LineRefReader, LineRefRow } from './line-refs.js';
export type {
  CitingRow,
  DueReminderRow,
  KnowledgeRow,
  ItemActivityRow,
  ItemCountRow,
  ItemFindQuery,
  ItemFound,
  FoundItemRow,
  ItemHistoryRow,
  ItemRow,
  ItemTagCountRow,
  ItemTypeCountRow,
} from './item-rows.js';
export type { KeywordHit } from './rows.js';
export type {
  KeywordPosting,
  KeywordStatistics,
  PostingsOptions,
  ReachableSet,
} from './keyword-statistics.js';
export { openControlStore, type ControlStore } from './control-store.js';
export type {
  IngestJobRow,
  MembershipRow,
  PrincipalRow,
  ProjectActivityRow,
  RegisteredProjectRow,
  TokenRow,
} from './control-rows.js';
