import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { profileQuestion } from './score.js';
import { knownWords, rarity, zipf } from './word-frequency.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

describe('question words weighed by how rare they are in English', () => {
  it('reads the SUBTLEX counts: common words high, rare ones low, whatever their case', () => {
    expect(zipf('the')).toBeGreaterThan(7);
    expect(zipf('dinner')).toBeGreaterThan(zipf('turtles'));
    expect(zipf('Turtles')).toBe(zipf('turtles'));
    expect(zipf('turtles?')).toBe(zipf('turtles'));
    expect(zipf('zzqxv')).toBeCloseTo(Math.log10(1 / 51) + 3, 6);
    expect(rarity('time')).toBe(0.5);
    expect(rarity('frosting')).toBeGreaterThan(1.5);
    expect(rarity('zzqxv')).toBe(2);
  });

  it('keeps only the words whose count changes their weight, not the 74,286 of the package', () => {
    expect(knownWords()).toBeGreaterThan(15_000);
    expect(knownWords()).toBeLessThan(20_000);
    // "palate" is met 50 times in 51 million words: as rare as a word never met, for the weight.
    expect(rarity('palate')).toBe(2);
    expect(zipf('palate')).toBe(zipf('zzqxv'));
    expect(rarity('frosting')).toBeLessThan(2);
  });

  it('weighs the plain words of a factual question by rarity, not those of a standing query', () => {
    const factual = profileQuestion('For how long has Nate had his turtles?');
    expect(factual.intents.size).toBe(0);
    expect(factual.weights.get('nate')).toBe(2);
    expect(factual.weights.get('long')).toBeLessThan(0.75);
    expect(factual.weights.get('turtl')).toBeGreaterThan(1.5);
    const standing = profileQuestion(
      'What bugs or failures were found, what was the root cause, and how were they fixed?',
    );
    expect(standing.intents.size).toBeGreaterThan(0);
    expect(new Set(standing.weights.values())).toEqual(new Set([1]));
  });

  it('reads a standing question with no cue word and no name as no factual question', () => {
    const project = profileQuestion('What is the current state of this project?');
    expect(project.intents.size).toBe(0);
    expect(project.factual).toBe(false);
    expect(new Set(project.weights.values())).toEqual(new Set([1]));
    expect(profileQuestion('When did Melanie paint a sunrise?').factual).toBe(true);
    expect(profileQuestion('What happened on 7 May 2023?').factual).toBe(true);
    expect(profileQuestion('How many copies of v2.1 were sold?').factual).toBe(true);
    expect(profileQuestion('What bugs were found in Poimen?').factual).toBe(false);
  });

  it('keeps the gate shut on a greeting that shares only a common word and the name', async () => {
    const ask = async (lines: string[]) => {
      const records: ChunkRecord[] = lines.map((text) => ({ role: 'user', text }));
      const reply = await heuristicController(words).answer({
        level: 'L1',
        question: 'For how long has Nate had his turtles?',
        memory: '',
        chunk: { text: lines.join('\n'), records },
        memoryBudget: 200,
      });
      return parseGateAnswer(reply.text);
    };
    const greeting = await ask([
      'Nate: Hey Joanna! Long time no see! What have you been up to?',
      'Joanna: Writing mostly, and I finished my screenplay last week.',
      'Nate: That is huge, congrats on finishing it!',
      'Joanna: Thanks! I am sending it to a few festivals next.',
      'Nate: Keep me posted on how it goes.',
    ]);
    expect(greeting.update).toBe(false);
    const answer = await ask([
      'Joanna: How are your pets doing?',
      'Nate: Great! I have had my turtles for three years now and they still surprise me.',
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('turtles for three years');
  });
});
