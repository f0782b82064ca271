export {
  loadLocomo,
  cleanEvidence,
  normalizeAnswer,
  type LocomoConversation,
  type LocomoQuestion,
  type LocomoSession,
  type LocomoTurn,
} from './locomo.js';
export { LOCOMO_SPLITS, locomoSplit, type LocomoSplit } from './locomo-split.js';
export {
  evalGate,
  type GateEvalOptions,
  type GateEvalReport,
  type GateScores,
} from './gate-eval.js';
export { Confusion, percentile, round4 } from './metrics.js';
export {
  evalRetrieval,
  environmentVectorSide,
  DEFAULT_KS,
  type RetrievalEvalOptions,
  type RetrievalEvalReport,
  type RetrievalScores,
  type RetrievalSweep,
  type RetrievalSweepRow,
  type RetrievalVectorSide,
} from './retrieval-eval.js';
export { recallAtK, RecallTable } from './recall-at-k.js';
export { writeLocomo, locomoProject, turnText } from './locomo-store.js';
export {
  loadGoldSet,
  parseGoldSet,
  GOLD_SPLITS,
  SYNTHESIS_KEY,
  type GoldFile,
  type GoldFinding,
  type GoldSet,
  type GoldSplit,
  type Keyword,
  type LoadedGoldSet,
} from './gold-set.js';
export { scoreRouting, type RouteScore } from './route-score.js';
export { memoryLines } from './memory-lines.js';
export {
  compileNoise,
  lineMatches,
  noiseCount,
  poolMultiStepRates,
  poolRates,
  scoreFile,
  summarize,
  type FileNotesScore,
  type GateCounts,
  type NoisePattern,
  type NotesSummary,
  type PooledRate,
  type QueryNoteScore,
} from './notes-score.js';
export {
  evalNotes,
  type IncrementalRun,
  type NoteRun,
  type NotesEvalOptions,
  type NotesOverall,
  type NotesEvalReport,
  type NotesFileReport,
} from './notes-eval.js';
export {
  FORGET_OBLIGATIONS,
  scoreForget,
  type ForgetObligation,
  type ForgetObligationName,
  type ForgetObservations,
  type ForgetScorecard,
  type LeakObservation,
  type ReaddObservation,
} from './forget-score.js';
export {
  evalSignatures,
  type SignatureEvalReport,
  type SignatureSighting,
} from './signature-eval.js';
