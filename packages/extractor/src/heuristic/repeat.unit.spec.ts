import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

/** Two chunks offered in turn to one controller, as the gated loop does; the second's answer. */
async function second(question: string, first: string, then: string) {
  const controller = heuristicController(words);
  const offer = async (text: string, memory: string) =>
    parseGateAnswer(
      (
        await controller.answer({
          level: 'L1',
          question,
          memory,
          chunk: { text, records: [{ role: 'user', text }] },
          memoryBudget: 200,
        })
      ).text,
    );
  const opened = await offer(first, '');
  expect(opened.update).toBe(true);
  return offer(then, opened.memory);
}

describe('a factual question already answered', () => {
  it('keeps the memory when a later sentence matches only terms a remembered line holds', async () => {
    const answer = await second(
      'When did Melanie paint a sunrise over the lake?',
      'Melanie painted a sunrise over the lake last summer.',
      'Melanie said painting the lake at dawn calms her.',
    );
    expect(answer.update).toBe(false);
  });

  it('keeps it too when the later sentence scores higher on the same question terms', async () => {
    const answer = await second(
      'When did Melanie paint a sunrise?',
      'Melanie painted a sunrise.',
      'Melanie painted a sunrise because dawn calms her.',
    );
    expect(answer.update).toBe(false);
  });

  it('still updates on a sentence that matches a question term the memory does not hold', async () => {
    const answer = await second(
      'When did Melanie paint a sunrise over the lake?',
      'Melanie painted the lake last summer.',
      'Melanie painted a sunrise in the mountains.',
    );
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('sunrise in the mountains');
  });

  it('never judges a question that asks for a kind of evidence so: a second bug is new', async () => {
    const answer = await second(
      'What bugs were found, what was the root cause, and how were they fixed?',
      'The root cause was a stale cache; the fix was to clear it on deploy.',
      'The root cause was a race in the uploader; the fix was a lock.',
    );
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('race in the uploader');
  });

  it('never judges a question that names nothing in particular so: the project moves on', async () => {
    const answer = await second(
      'What is the current state of this project?',
      'The current state of the project: the parser is done.',
      'The current state of the project: the exporter now ships too.',
    );
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('exporter now ships');
  });

  it('still judges a question naming a place or a number so, without a person in it', async () => {
    const answer = await second(
      'What was hit by the flood in 2021?',
      'The flood in 2021 hit the old mill.',
      'The flood in 2021 was in the news for weeks.',
    );
    expect(answer.update).toBe(false);
  });
});
