import { MemError, type MemConfig } from '@mem/core';
import { chatEndpointFromEnv } from '@mem/llm';
import { composeHeuristic } from './compose-heuristic.js';
import { composeOpenai } from './compose-openai.js';
import { skillText, type SkillSource } from './skill-input.js';

export type SkillComposer = 'heuristic' | 'openai';

/**
 * Composes a SKILL.md: with the composer asked for, else `openai` when MEM_LLM_URL is set (as the
 * extractor chooses its controller), else the embedded heuristic. `openai` without an endpoint
 * is CONFIG_INVALID.
 */
export async function composeSkill(
  source: SkillSource,
  config: MemConfig,
  asked?: SkillComposer,
): Promise<{ composer: SkillComposer; text: string }> {
  const endpoint = chatEndpointFromEnv(config);
  const composer = asked ?? (endpoint ? 'openai' : 'heuristic');
  if (composer === 'heuristic')
    return { composer, text: skillText(source, composeHeuristic(source)) };
  if (!endpoint)
    throw new MemError(
      'CONFIG_INVALID',
      'the openai skill composer needs MEM_LLM_URL and MEM_LLM_MODEL',
      { variable: 'MEM_LLM_URL' },
    );
  return { composer, text: skillText(source, await composeOpenai(endpoint, source)) };
}

export type { SkillSource } from './skill-input.js';
