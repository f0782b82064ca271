import { MemError } from '@mem/core';
import { chatCompletion, type ModelEndpoint } from '@mem/llm';
import type { SkillParts, SkillSource } from './skill-input.js';

const SYSTEM = [
  'You write an Agent Skill (SKILL.md) from a project memory note.',
  'Be concise and actionable: a clear workflow of numbered steps, then what to check.',
  'Use only what the note lines say; invent nothing.',
  'Answer with one JSON object and nothing else:',
  '{"description": "...", "when_to_use": "...", "body": "markdown body, no frontmatter"}.',
  'The description says what the skill does and when to use it, in the words a user would use.',
].join(' ');

/**
 * The `openai` composer: the configured chat model writes the parts, mem writes the frontmatter's
 * provenance itself. An answer that is not that JSON object is MALFORMED_ANSWER; an unreachable
 * model is the llm client's MODEL_FAILED or TIMEOUT. Either way nothing is written.
 */
export async function composeOpenai(
  endpoint: ModelEndpoint,
  source: SkillSource,
): Promise<SkillParts> {
  const user = [
    `Skill name: ${source.name}`,
    `Note: ${source.title} (${source.from})`,
    'Lines:',
    ...source.lines.map((line) => `- ${line}`),
  ].join('\n');
  const { text } = await chatCompletion(
    endpoint,
    [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: user },
    ],
    { temperature: 0 },
  );
  return parseParts(endpoint.url, text);
}

function parseParts(url: string, text: string): SkillParts {
  const json = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw malformed(url, 'not JSON', error);
  }
  const parts = value as Partial<Record<keyof SkillParts, unknown>>;
  for (const key of ['description', 'when_to_use', 'body'] as const) {
    const field = parts?.[key];
    if (typeof field !== 'string' || field.trim() === '')
      throw malformed(url, `expected a non-empty string "${key}"`);
  }
  return {
    description: (parts.description as string).trim(),
    when_to_use: (parts.when_to_use as string).trim(),
    body: parts.body as string,
  };
}

function malformed(url: string, why: string, cause?: unknown): MemError {
  return new MemError(
    'MALFORMED_ANSWER',
    `${url}: the skill answer is ${why}`,
    { url },
    cause === undefined ? undefined : { cause },
  );
}
