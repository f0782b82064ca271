export { projectorPgvector, PGVECTOR_VERSION } from './projector.js';
export { openVectorRecall, type OpenVectorRecallOptions } from './vector-recall.js';
export { holdEmbeddedPglite } from './hold.js';
export { preferBaselineWasm } from './backend/wasm-tier.js';
export type {
  RecallFilter,
  RecallLevel,
  RecallRequest,
  VectorHit,
  VectorKind,
  VectorLevel,
  VectorRecall,
} from './recall-types.js';
export type { PgvectorBackendOptions, PgvectorOptions } from './options.js';
export type { PgvectorHandle } from './handle.js';
export { planEvent } from './plan/plan-event.js';
export type { PlannedWrite } from './plan/planned-write.js';
