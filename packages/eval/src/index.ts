export { loadLocomo, cleanEvidence, normalizeAnswer, type LocomoConversation, type LocomoQuestion, type LocomoSession, type LocomoTurn } from './locomo.js';
export { evalGate, type GateEvalOptions, type GateEvalReport, type GateScores } from './gate-eval.js';
export { Confusion, percentile, round4 } from './metrics.js';
