import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { MEANING_OFFSET, withMeaning } from './chat-meaning.js';
import { heuristicController } from './controller.js';
import { profileQuestion, scoreSentence } from './score.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

async function gate(question: string, lines: string[]) {
  const records: ChunkRecord[] = lines.map((text) => ({ role: 'user', text }));
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question,
    memory: '',
    chunk: { text: lines.join('\n'), records },
    memoryBudget: 400,
  });
  return parseGateAnswer(reply.text);
}

const question = 'What did Omar and his little nephew see at the city aquarium?';

describe('a chat turn judged by how near its words are to a factual question', () => {
  it('weighs a turn that says what was asked above one with the same terms in other words', () => {
    const profile = profileQuestion(question);
    const same = 0.5;
    const near = withMeaning(
      profile,
      'Omar: My little nephew and I saw sharks at the aquarium.',
      same,
    );
    const far = withMeaning(
      profile,
      'Omar: Nephew duty again; the aquarium gift shop is a trap.',
      same,
    );
    expect(near).toBeGreaterThan(far);
    // The offset: a turn sharing nothing with the question loses what the blend could add.
    expect(withMeaning(profile, 'Lena: Sounds fun.', same)).toBeLessThan(same);
    expect(withMeaning(profile, 'Lena: Sounds fun.', 0)).toBe(0);
    expect(MEANING_OFFSET).toBeGreaterThan(0);
  });

  it('shuts the gate on a turn naming the person and one word of the question about something else', async () => {
    const lines = [
      'Omar: Traffic downtown was awful, the whole city was stuck.',
      'Lena: Because of the festival?',
      'Omar: Yes, so many people.',
    ];
    // The terms alone open it: Omar's name and "city".
    const terms = scoreSentence(profileQuestion(question), lines[0]!, undefined, undefined, true);
    expect(terms.score).toBeGreaterThanOrEqual(0.4);
    const answer = await gate(question, lines);
    expect(answer.update).toBe(false);
  });

  it('still opens it on the turn that answers', async () => {
    const answer = await gate(question, [
      'Omar: We saw a giant octopus at the city aquarium, my nephew loved it.',
      'Lena: That sounds fun.',
      'Omar: He wants to go back already.',
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('giant octopus');
  });

  it('leaves a transcript that is no labelled chat to its terms', async () => {
    const line = 'The traffic downtown was awful, the whole city was stuck for Omar.';
    const answer = await gate(question, [line, 'We waited for an hour.']);
    const terms = scoreSentence(profileQuestion(question), line, undefined, undefined, false);
    expect(answer.think).toContain(`scores ${terms.score}`);
  });
});
