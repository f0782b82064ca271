import { MemError, type MemConfig } from '@mem/core';
import type { Tokenizer } from '@mem/chunk';
import {
  heuristicController,
  openaiController,
  synthesisController,
  type Controller,
} from '@mem/extractor';
import { chatEndpointFromEnv } from '@mem/llm';

import type { ControllerName } from './definitions.js';

export { CONTROLLERS, type ControllerName } from './definitions.js';

/**
 * The controller to run: the one asked for, else `openai` when MEM_LLM_URL is set, else the
 * embedded `heuristic` (at L2 the embedded synthesis controller). Asking for `openai` without an
 * endpoint is CONFIG_INVALID.
 */
export function chooseController(
  name: ControllerName | undefined,
  tokenizer: Tokenizer,
  config: MemConfig,
  level: 'L1' | 'L2' = 'L1',
): Controller {
  const endpoint = chatEndpointFromEnv(config);
  const chosen = name ?? (endpoint ? 'openai' : 'heuristic');
  // The embedded L2 pass judges batches of L1 lines, not transcript chunks: its own controller.
  if (chosen === 'heuristic')
    return level === 'L2' ? synthesisController(tokenizer) : heuristicController(tokenizer);
  if (!endpoint) {
    throw new MemError(
      'CONFIG_INVALID',
      'the openai controller needs MEM_LLM_URL and MEM_LLM_MODEL (and MEM_LLM_KEY if the endpoint wants one)',
      { variable: 'MEM_LLM_URL' },
    );
  }
  return openaiController(endpoint);
}
