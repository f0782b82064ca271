export { projectorSqlite } from './projector.js';
export { planEvent } from './plan.js';
export { nodeId } from './node-id.js';
export type { ItemStoreHandle } from './handle.js';
export type { PlannedWrite, StatementName } from './planned-write.js';
export { openItemStore, type ItemStore, type NodeFilter, type OpenItemStoreOptions, type SearchOptions } from './item-store.js';
export type { EdgeRow, GateCounts, NodeLevel, NodeRow, PositionRow, RunRow, SearchHit } from './rows.js';
