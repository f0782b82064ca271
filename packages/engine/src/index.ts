export type {
  ProjectedEvent,
  ProjectionBatch,
  ProjectionOptions,
  ProjectionOutput,
  ProjectionPosition,
  ProjectionTarget,
  Projector,
} from './projector.js';
export {
  Engine,
  type AppendOptions,
  type CatchUpWatcher,
  type EngineOptions,
  type IdempotencyRecord,
  type PurgeReport,
  type RebuildOptions,
  type RebuildReport,
} from './engine.js';
export {
  extractionLock,
  ingestJobLock,
  itemWriteLock,
  lockPgliteDir,
  pgliteLockPath,
} from './locks.js';
export type { CatchUpReport } from './catch-up.js';
export type { AppendInput } from './append-provenance.js';
export type { VerifyReport, ProjectVerify } from './verify.js';
export type { ParityDifference } from './parity.js';
export type { ProvenanceProblem } from './provenance.js';
export { ProvenanceCheck } from './provenance.js';
export { dataRootAt, resolveDataRoot, type DataRoot } from './root.js';
export { leftoverSettingsFile } from './projection-settings.js';
export { checkStart } from './batch-checks.js';
export { projectStretch, routeBatch } from './routing.js';
export { TombstoneSet, foldTombstones, type TombstoneHit } from './tombstones/tombstone-set.js';
export {
  REWORD_CONTAINMENT,
  REWORD_JACCARD,
  REWORD_MIN_TERMS,
  rewords,
  termHashes,
} from './tombstones/reword.js';
