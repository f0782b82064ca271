export { extendBatch, validateBatch, type LocatePayload, type ValidBatch } from './batch.js';
export { DEFAULT_SEGMENT_BYTES, EventLog } from './event-log.js';
export { fsyncDirectory, fsyncFile } from './durable-fs.js';
export { FIRST_SEGMENT, segmentIndex, segmentName } from './segment-name.js';
export { holdFileLock, withFileLock } from './project-lock.js';
export { CHAIN_BREAK_CODES } from './types.js';
export type { QueuedBatch } from './append.js';
export type { PurgeInput, PurgeResult, PurgeStep } from './purge.js';
export type {
  AppendResult,
  ChainBreak,
  EventLogOptions,
  LogHead,
  LogTail,
  LoggedEvent,
  ReadOptions,
  TornTail,
  VerifyResult,
  Writer,
} from './types.js';
