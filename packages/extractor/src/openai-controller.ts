import { chatCompletion, type ModelEndpoint } from '@mem/llm';
import type { Controller, ControllerAnswer, ControllerInput } from './controller.js';
import { buildPrompt } from './prompt.js';
import { bulletMemory, formatGateAnswer, parseGateAnswer } from './protocol.js';

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
      return { text: canonicalLines(result.text), latencyMs: result.latencyMs };
    },
  };
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
