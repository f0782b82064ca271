import { lineTokens, nearDuplicateTokens, splitMemoryLines } from '@mem/core';
import { chatCompletion, type ModelEndpoint } from '@mem/llm';
import type { ChunkRecord, Controller, ControllerAnswer, ControllerInput } from './controller.js';
import { buildPrompt } from './prompt.js';
import { bulletMemory, formatGateAnswer, parseGateAnswer } from './protocol.js';
import { RETIRED_ROLE } from './synthesis/controller.js';

export interface OpenAIControllerOptions {
  /** Attempts per chunk when the answer is malformed or over budget. Default 3. */
  maxAttempts?: number;
  /** Upper bound on the answer's length. Default 2048 (the paper's max response). */
  maxTokens?: number;
}

/**
 * The model-backed controller: any OpenAI-compatible /v1/chat/completions (Ollama, vLLM,
 * llama.cpp). Transport failures are retried with backoff inside the client; a malformed or
 * over-budget answer is re-asked up to `maxAttempts` times by the loop, then the run ends.
 */
export function openaiController(
  endpoint: ModelEndpoint,
  options: OpenAIControllerOptions = {},
): Controller {
  return {
    name: 'openai',
    model: endpoint.model,
    maxAttempts: options.maxAttempts ?? 3,
    strictBudget: true,
    async answer(input: ControllerInput): Promise<ControllerAnswer> {
      const messages = buildPrompt({
        level: input.level,
        question: input.question,
        memory: input.memory,
        chunk: input.chunk.text,
        memoryBudget: input.memoryBudget,
      });
      const result = await chatCompletion(endpoint, messages, {
        maxTokens: options.maxTokens ?? 2048,
      });
      const text = canonicalLines(result.text);
      const retiring = retiredLines(input.chunk.records);
      return {
        text:
          retiring.texts.size === 0
            ? text
            : withoutRetired(text, input.memory, retiring, input.chunk.records),
        latencyMs: result.latencyMs,
      };
    },
  };
}

interface Retired {
  texts: Set<string>;
  tokens: Set<string>[];
}

/** The lines a synthesis step retires (records of role RETIRED_ROLE): their texts and token sets. */
function retiredLines(records: readonly ChunkRecord[]): Retired {
  const texts = records.filter((r) => r.role === RETIRED_ROLE).map((r) => r.text.trim());
  return { texts: new Set(texts), tokens: texts.map((text) => lineTokens(text)) };
}

/**
 * A well-formed answer to a step that retires lines with every retired line (or a rewording of
 * one) out of its memory, whatever the model answered: a closed gate keeps the previous memory
 * less those lines, an open one the model's memory less them; such a step never ends the run (the
 * batches after it fill the room). A malformed answer is passed on untouched (the loop refuses and
 * re-asks). One that leaves nothing to write while a retired line is held is given the step's
 * own offered lines in code (the first batch's, which the synthesis fills to the budget): an
 * empty update is no memory, and a closed gate would keep the retired lines.
 *
 * Trigger: the embedded synthesis controller drops a retired line in code, but the model saw
 * the retiring step only as text and its prompt said nothing of it, so an L2 written by a model
 * kept a line no L1 note said any more. Why: the model's reply is untrusted input; the
 * retirement is a rule of the synthesis, not a judgement. Outcome: both controllers leave the
 * L2 without the retired lines after the step, and the model's answer decides only the rest.
 */
function withoutRetired(
  text: string,
  previous: string,
  retired: Retired,
  records: readonly ChunkRecord[],
): string {
  let answer;
  try {
    answer = parseGateAnswer(text);
  } catch {
    return text;
  }
  // A held line the step does not retire stays as the model left it, even where it is close to
  // one it retires (near-duplicates are not transitive: it may rest on a current L1 line).
  const held = new Set(splitMemoryLines(previous).filter((line) => !retired.texts.has(line)));
  const lines = splitMemoryLines(answer.update ? answer.memory : previous);
  const kept = lines.filter((line) => {
    if (held.has(line)) return true;
    const tokens = lineTokens(line);
    return !retired.tokens.some((gone) => nearDuplicateTokens(gone, tokens));
  });
  let memory = bulletMemory(kept.join('\n'));
  let filled = false;
  // Nothing left to write while the memory still holds a retired line: the step's own lines
  // take their place. Trigger: such an answer was refused as malformed, so with a model that
  // always closes the gate every synthesis ended at this step (re-asked, not recorded, offered
  // again) and never read a batch after it. Why: a closed gate there would keep the lines the
  // synthesis retires, and the retirement is a rule, not a judgement; the offered lines are what
  // the L1 notes hold now. Outcome: the L2 leaves the retired lines and the run goes on.
  if (memory === '' && splitMemoryLines(previous).some((line) => retired.texts.has(line))) {
    const offered = records.filter((r) => r.role !== RETIRED_ROLE).map((r) => r.text);
    // A step that offers no line of its own (synthesisSteps never makes one): refused as an
    // empty update (MALFORMED_ANSWER), never written with the retired lines kept.
    if (offered.length === 0)
      return formatGateAnswer({ think: answer.think, update: true, memory: '', exit: false });
    memory = bulletMemory(offered.join('\n'));
    filled = true;
  }
  const update = memory !== '' && memory !== bulletMemory(previous);
  const taken = lines.length - kept.length;
  const think = [
    answer.think,
    taken > 0
      ? `(${taken} line${taken === 1 ? '' : 's'} no L1 note holds any more taken out in code.)`
      : '',
    filled ? "(nothing else left: the step's own lines written in their place, in code.)" : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
  return formatGateAnswer({ think, update, memory: update ? memory : '', exit: false });
}

/**
 * A well-formed answer's memory rewritten as `- ` lines, so a model's memory has the heuristic's
 * line structure. A malformed answer is passed on untouched: the loop refuses and re-asks.
 */
function canonicalLines(text: string): string {
  let answer;
  try {
    answer = parseGateAnswer(text);
  } catch {
    return text;
  }
  return answer.update
    ? formatGateAnswer({ ...answer, memory: bulletMemory(answer.memory) })
    : text;
}
