import { describe, expect, it } from 'vitest';
import { isMemError } from '@mem/core';
import { evalGate } from './gate-eval.js';
import type { LocomoConversation } from './locomo.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

/** A two-session chat whose one question is answered in its second session. */
const conversation = (sampleId: string, hobby: string): LocomoConversation => ({
  sampleId,
  speakers: ['Ana', 'Ben'],
  sessions: [1, 2].map((number) => ({
    number,
    dateTime: null,
    turns: [
      {
        diaId: `D${number}:1`,
        speaker: 'Ana',
        text: number === 1 ? 'Hi Ben, long week at work.' : `I took up ${hobby} last month.`,
      },
      { diaId: `D${number}:2`, speaker: 'Ben', text: 'Sounds good, tell me more next time.' },
    ],
  })),
  questions: [
    { question: `What did Ana take up?`, answer: hobby, evidence: ['D2:1'], category: 4 },
  ],
});
const all = [
  conversation('conv-1', 'pottery'),
  conversation('conv-2', 'archery'),
  conversation('conv-3', 'rowing'),
];

describe('evalGate on a slice of a split', () => {
  it('runs only the conversations named, in the split', async () => {
    const report = await evalGate(all, {
      tokenizer: words,
      split: 'tuning',
      conversations: ['conv-2'],
    });
    expect(report.conversations).toEqual(['conv-2']);
    expect(report.questions).toBe(1);
    expect(report.sessions).toBe(2);
  });

  it('refuses a conversation the split does not hold, and an empty list', async () => {
    for (const conversations of [['conv-3'], ['conv-9'], []]) {
      const caught = await evalGate(all, {
        tokenizer: words,
        split: 'tuning',
        conversations,
      }).catch((error: unknown) => error);
      expect(isMemError(caught) && caught.code).toBe('INVALID_INPUT');
    }
  });

  it('runs the heuristic alone when the baselines are off', async () => {
    const alone = await evalGate(all, { tokenizer: words, split: 'tuning', baselines: false });
    expect(Object.keys(alone.controllers)).toEqual(['heuristic']);
    const full = await evalGate(all, { tokenizer: words, split: 'tuning' });
    expect(Object.keys(full.controllers)).toEqual(['heuristic', 'always', 'random']);
    expect(alone.controllers['heuristic']).toEqual(full.controllers['heuristic']);
  });
});
