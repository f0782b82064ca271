import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { questionIntents } from './cues.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

describe('a question about a named person', () => {
  it('asks for facts about them: its cue words are its topic, not a kind of evidence', () => {
    for (const question of [
      'When did Gina design a limited collection of hoodies?',
      'Why did Jon decide to start his dance studio?',
      'When did John go to a convention with colleagues?',
      "When did Joanna's laptop crash?",
      'What causes does John feel passionate about supporting?',
    ])
      expect([...questionIntents(question)], question).toEqual([]);
  });

  it('leaves a standing question of a project its kinds of evidence', () => {
    expect([
      ...questionIntents(
        'What bugs or failures were found, what was the root cause, and how were they fixed?',
      ),
    ]).toEqual(['cause', 'error']);
    expect([
      ...questionIntents(
        'What architectural decisions were made, with reasoning and rejected alternatives?',
      ),
    ]).toEqual(['decision']);
    expect([...questionIntents('What questions were raised and left unresolved?')]).toEqual([
      'open',
    ]);
    expect([...questionIntents('Why did the theme loader crash?')]).toEqual(['error']);
    // A project or tool a question mentions is not a person it asks about.
    for (const [named, plain] of [
      [
        'What architectural decisions were made about Vite?',
        'What architectural decisions were made?',
      ],
      ['What infrastructure bugs were found in Poimen?', 'What infrastructure bugs were found?'],
    ] as const) {
      expect([...questionIntents(named)], named).toEqual([...questionIntents(plain)]);
      expect(questionIntents(named).size, named).toBeGreaterThan(0);
    }
  });

  it('keeps the gate shut on a session that only names them beside a decision', async () => {
    const records: ChunkRecord[] = [
      'Gina: Hey Jon, how was your week?',
      'Jon: Busy! I decided to rent a bigger studio downtown.',
      'Gina: I decided to take a break from the store this month.',
      'Jon: Good call, rest matters.',
    ].map((text) => ({ role: 'user', text }));
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: 'When did Gina design a limited collection of hoodies?',
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).update).toBe(false);
  });

  it('reads a question said in the conversation as a line: it may carry the fact asked about', async () => {
    const records: ChunkRecord[] = [
      'Gina: Did you like the limited collection of hoodies I designed for the store last week?',
      'Jon: Loved them, the colours are great.',
    ].map((text) => ({ role: 'user', text }));
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: 'When did Gina design a limited collection of hoodies?',
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    const answer = parseGateAnswer(reply.text);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('limited collection of hoodies');
  });
});
