export {
  RECORD_ROLES,
  type RecordProvenance,
  type RecordRole,
  type RecordSource,
  type SourceRecord,
  type SummarySection,
  type PastedKind,
} from './record.js';
export type { Tokenizer } from './tokenizer/tokenizer.js';
export {
  QwenTokenCounter,
  createQwenTokenizer,
  loadQwenTokenizerJson,
  qwenTokenizer,
} from './tokenizer/qwen.js';
export type { TokenizerJson } from './tokenizer/pipeline.js';
export {
  DEFAULT_CHUNK_POLICY,
  MIN_MAX_TOKENS,
  assertChunkPolicy,
  chunkPolicy,
  type ChunkPolicy,
  type FlushTrigger,
} from './policy.js';
export type { Chunk, ChunkRecord, RecordPart } from './chunk.js';
export { blockHeader, renderBlock, type RenderedBlock } from './render.js';
export { ChunkPacker, packRecords } from './packer.js';
export { chunks, type ChunkStreamOptions } from './stream.js';
export { tokenHistogram, type HistogramBucket, type TokenHistogram } from './histogram.js';
