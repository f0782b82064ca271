import type { LoopLevel } from './prompt.js';

/** One record of a chunk as the controller sees it. L2 chunks hold one record of role `memory`. */
export interface ChunkRecord {
  role: string;
  text: string;
  /** `summary` records only: the compaction summary's titled parts (a "Key decisions" bullet answers the decisions question). */
  sections?: readonly { heading: string; text: string; path?: readonly string[] }[];
  /** `user` records only: set when the text is a paste (JSON, JSONL, a tool dump), not the user's words. */
  pasted?: string;
}

export interface ControllerInput {
  level: LoopLevel;
  question: string;
  /** M_{t-1}, empty at the start. */
  memory: string;
  /** `source`: the transcript the chunk is from (a controller may carry state between its chunks). */
  chunk: { text: string; records: readonly ChunkRecord[]; label?: string; source?: string };
  memoryBudget: number;
}

export interface ControllerAnswer {
  /** The raw tagged answer; the loop parses it strictly, whoever wrote it. */
  text: string;
  latencyMs: number;
}

/**
 * A gate controller: given (question, memory, chunk) it answers in the paper's tagged
 * protocol. `openai` calls a model; `heuristic` is the deterministic embedded default.
 */
export interface Controller {
  readonly name: 'heuristic' | 'openai' | (string & {});
  /** Recorded as the run's `model`. */
  readonly model: string;
  /** Attempts per chunk before the run ends with an error (1 = no retry). */
  readonly maxAttempts: number;
  /** When true, an update over the memory budget is an error (the model's answer is refused). */
  readonly strictBudget: boolean;
  answer(input: ControllerInput): Promise<ControllerAnswer>;
}
