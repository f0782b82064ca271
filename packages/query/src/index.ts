export {
  lineKeyOf,
  queryMemory,
  recallDepth,
  rerankDepth,
  type QueryDeps,
} from './query-memory.js';
export {
  CITATION_EXCERPT_CHARS,
  citationsOf,
  citationsOfPage,
  type CitationMode,
} from './citations.js';
export {
  resolveRequest,
  CITATION_MODES,
  DEFAULT_CITATIONS,
  DEFAULT_LEVELS,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  RECALL_LEVELS,
  type QueryRequest,
  type ResolvedRequest,
} from './request.js';
export {
  keywordTerms,
  matchExpression,
  MAX_KEYWORD_TERMS,
  type KeywordTerms,
} from './keyword-terms.js';
export {
  fuse,
  compareFused,
  rrfMicro,
  RRF_K,
  EQUAL_WEIGHTS,
  SIGNALS,
  type Fused,
  type NodeKey,
  type SignalHit,
  type SignalLists,
  type SignalWeights,
} from './fusion.js';
export { floorPassedBy, type RelevanceFloor } from './floor.js';
export {
  BAND_MICRO,
  bandWeights,
  orderWithinBands,
  relevanceBand,
  usageBucket,
  type BandRanking,
  type OrderInput,
} from './band-order.js';
export { TEMPORAL_CUES, temporalCue } from './temporal-cue.js';
export {
  defaultFloor,
  defaultWeights,
  HASH_DEFAULTS,
  KEYWORD_FLOOR,
  KEYWORD_POSTINGS_BUDGET,
  MODEL_DEFAULTS,
} from './defaults.js';
export { parseFusionWeights, queryTuningFromEnv, type QueryTuning } from './from-env.js';
export { termsWithinBudget } from './keyword-recall.js';
export { tierOf, TIER_ORDER } from './tier.js';
export type { KeywordStrategy } from './keyword-recall.js';
export {
  INSUFFICIENT_RECALL,
  type Addition,
  type Citation,
  type Correction,
  type KeywordRank,
  type FoldedHit,
  type QueryHit,
  type QueryResult,
  type AsOf,
  type Supersession,
  type Ranking,
  type Signal,
  type Tier,
  type VectorRank,
} from './result.js';
export type {
  EmbedRole,
  Embedder,
  QueryLevel,
  RecallLevel,
  Reranker,
  VectorHit,
  VectorKind,
  VectorRecall,
} from './ports.js';
export { noteOf, type LineNote } from './line-note.js';
export { itemKey, type ItemHoldBack, type ItemOfHit } from './item-hits.js';
export {
  matchSignatures,
  type MatchSignaturesRequest,
  type SignatureMatch,
  type SignatureSighting,
} from './match-signatures.js';
export {
  assembleContext,
  PROJECT_MATCH_BOOST,
  type ContextBundle,
  type ContextDeps,
  type ContextLine,
  type ContextLeg,
  type ContextRequest,
  type RecallEntry,
  type SignatureEntry,
  type SkillEntry,
} from './tool-context.js';
export { fitBudget, type BudgetReport, type Trimmable } from './context-budget.js';
export { matchSkills, type SkillCard } from './context-skills.js';
