export { loadLocomo, cleanEvidence, normalizeAnswer, type LocomoConversation, type LocomoQuestion, type LocomoSession, type LocomoTurn } from './locomo.js';
export { evalGate, type GateEvalOptions, type GateEvalReport, type GateScores } from './gate-eval.js';
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
