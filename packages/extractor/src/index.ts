export type { ChunkRecord, Controller, ControllerAnswer, ControllerInput } from './controller.js';
export { formatGateAnswer, parseGateAnswer, type GateAnswer } from './protocol.js';
export { buildPrompt, type LoopLevel, type PromptInput } from './prompt.js';
export {
  GatedRun,
  type LoopStep,
  type PreviousMemory,
  type RunConfig,
  type RunSummary,
} from './loop.js';
export { heuristicController, type HeuristicOptions } from './heuristic/controller.js';
export {
  RETIRED_MARK,
  RETIRED_ROLE,
  synthesisController,
  type SynthesisOptions,
} from './synthesis/controller.js';
export {
  lineStrength,
  synthesisKind,
  synthesisPriority,
  type SynthesisKind,
} from './synthesis/strength.js';
export { openaiController, type OpenAIControllerOptions } from './openai-controller.js';
export {
  profileQuestion,
  scoreSentence,
  type QuestionProfile,
  type SentenceScore,
} from './heuristic/score.js';
export { sentences, terms } from './heuristic/text.js';
export { symptomOf } from './symptom.js';
export { routeLine, routedKinds, LINE_KINDS, type LineKind } from './heuristic/route.js';
