import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { asksForSeveral } from './question-shape.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

describe('a factual question that asks for several things', () => {
  it('is what two people share, or what someone has done so far', () => {
    expect(asksForSeveral('Where has Melanie camped?')).toBe(true);
    expect(asksForSeveral('What books has Melanie read?')).toBe(true);
    expect(asksForSeveral('Which cities have Priya and Tom visited?')).toBe(true);
    expect(asksForSeveral('What LGBTQ+ events has Caroline attended?')).toBe(true);
    expect(asksForSeveral('How many times has Ravi been to Lisbon?')).toBe(true);
    expect(asksForSeveral('What do Jon and Gina have in common?')).toBe(true);
    expect(asksForSeveral('Which sports do Ana and Lee both play?')).toBe(true);
  });

  it('is not one event, a habit, a duration, an ongoing activity, or an unnamed subject', () => {
    expect(asksForSeveral('What book did Melanie read last week?')).toBe(false);
    expect(asksForSeveral('What pets does Melanie have?')).toBe(false);
    expect(asksForSeveral('How long has Nate had his turtles?')).toBe(false);
    expect(asksForSeveral('What movie has Nate seen recently?')).toBe(false);
    expect(asksForSeveral('What has changed since the release?')).toBe(false);
    expect(asksForSeveral('How many people came to the launch party?')).toBe(false);
    expect(asksForSeveral('What articles has Tim been writing lately?')).toBe(false);
    expect(asksForSeveral('What has John been able to teach the team?')).toBe(false);
    expect(asksForSeveral('Who did Maria have dinner with?')).toBe(false);
    expect(asksForSeveral('What is the current state of this project?')).toBe(false);
  });
});

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

describe('the held answer of a question that asks for several things', () => {
  it('lets a later session that names the topic strongly add the next one', async () => {
    const answer = await second(
      'Where has Melanie camped?',
      'Melanie: we camped at the beach last summer.',
      'Melanie: we camped in the mountains this time.',
    );
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('camped in the mountains');
  });

  it('still holds against a weaker mention of the same terms (the other speaker, no name)', async () => {
    const answer = await second(
      'Where has Melanie camped?',
      'Melanie: we camped at the beach last summer.',
      'Caroline: camping sounds like so much fun!',
    );
    expect(answer.update).toBe(false);
  });

  it('still holds the answer of a question about one event', async () => {
    const answer = await second(
      'Where did Melanie camp last summer?',
      'Melanie: we camped at the beach last summer.',
      'Melanie: we camped in the mountains last summer.',
    );
    expect(answer.update).toBe(false);
  });
});
