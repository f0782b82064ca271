import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { cuesIn, questionIntents } from './cues.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const SYNTHESIS =
  'What is the current state of this project, and what should someone know before working on it?';
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';

// An L1 decisions note whose standing rules come last: the synthesis reads at most nine lines of it.
const facts = Array.from(
  { length: 10 },
  (_, i) => `Module ${String.fromCharCode(97 + i)} keeps its own cache of parsed headers.`,
);
const rules = [
  'Release process: run the version script, date the changelog, tag, push, publish.',
  'The maintainer prefers surgical edits to the changelog, never full rewrites.',
];

describe('a standing rule of the project', () => {
  it('is what a question about working on the project asks for', () => {
    expect(questionIntents(SYNTHESIS)).toContain('rule');
    expect(questionIntents(DECISIONS)).not.toContain('rule');
    for (const rule of rules) expect(cuesIn(rule).map((c) => c.family)).toContain('rule');
    expect(cuesIn(facts[0]!).map((c) => c.family)).not.toContain('rule');
  });

  it('reaches the synthesis ahead of plain facts listed before it', async () => {
    const note = [...facts, ...rules].map((line) => `- ${line}`).join('\n');
    const reply = await heuristicController(words).answer({
      level: 'L2',
      question: SYNTHESIS,
      memory: '',
      chunk: {
        text: note,
        records: [{ role: 'memory', text: note }],
        label: 'architecture-decisions',
      },
      memoryBudget: 400,
    });
    const memory = parseGateAnswer(reply.text).memory;
    for (const rule of rules) expect(memory).toContain(rule);
  });

  it('weighs nothing where the question does not ask for rules', async () => {
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: DECISIONS,
      memory: '',
      chunk: {
        text: rules[1]!,
        records: [{ role: 'assistant', text: rules[1]! }],
      },
      memoryBudget: 400,
    });
    expect(parseGateAnswer(reply.text).update).toBe(false);
  });
});
