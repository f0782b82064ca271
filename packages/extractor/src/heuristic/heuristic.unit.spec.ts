import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { foldMemory, renderMemory } from './fold.js';
import { profileQuestion, scoreSentence } from './score.js';
import { terms } from './text.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const question =
  'What infrastructure bugs were found, what was the root cause, and how were they fixed?';

async function decide(records: { role: string; text: string }[], memory = '', budget = 200) {
  const controller = heuristicController(words);
  const reply = await controller.answer({
    level: 'L1',
    question,
    memory,
    chunk: { text: records.map((r) => r.text).join('\n'), records },
    memoryBudget: budget,
  });
  return parseGateAnswer(reply.text);
}

describe('heuristic controller', () => {
  it('opens the gate on prose that states a root cause and its fix', async () => {
    const answer = await decide([
      { role: 'user', text: 'Uploads over 10KB fail with 413 again.' },
      {
        role: 'assistant',
        text: 'The root cause was that Kong buffered the request body; setting proxy-body-size: 0 on the ingress fixed it.',
      },
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('Kong buffered the request body');
  });

  it('keeps the gate closed on tool output and narration, however relevant the words', async () => {
    const answer = await decide([
      { role: 'assistant', text: 'Let me check the ingress logs for the root cause.' },
      { role: 'tool_call', text: 'Bash: kubectl logs ingress' },
      {
        role: 'tool_result',
        text: 'error: root cause bug fixed failure 413 kong buffer infrastructure',
      },
    ]);
    expect(answer.update).toBe(false);
    expect(answer.memory).toBe('');
  });

  it('answers the same thing for the same input (deterministic)', async () => {
    const records = [
      {
        role: 'assistant',
        text: 'We decided on pnpm instead of npm because workspaces install faster.',
      },
    ];
    expect(await decide(records)).toEqual(await decide(records));
  });

  it('says nothing new when the memory already holds what the chunk says', async () => {
    const text =
      'The root cause was that Kong buffered the request body; setting proxy-body-size fixed it.';
    const first = await decide([{ role: 'assistant', text }]);
    const again = await decide([{ role: 'assistant', text }], first.memory);
    expect(again.update).toBe(false);
  });

  it('discounts a term that runs through the whole chunk (a speaker on every turn)', () => {
    const profile = profileQuestion('What did Caroline research?');
    const plain = scoreSentence(profile, 'Caroline: Hey Mel!');
    expect(plain.relevance).toBeGreaterThan(0.5);
    const discounted = scoreSentence(profile, 'Caroline: Hey Mel!', new Map([['carolin', 0.25]]));
    expect(discounted.relevance).toBeLessThan(0.25);
  });

  it('drops possessives and stopwords from terms', () => {
    expect(terms("What are Maria's dogs' names?")).toEqual(['maria', 'dog', 'name']);
  });
});

describe('foldMemory', () => {
  it('never exceeds the budget, whatever it is given', () => {
    const item = fc.record({
      text: fc
        .array(fc.constantFrom('kong', 'buffer', 'fixed', 'root', 'cause', 'pg', 'mount', 'x'), {
          minLength: 1,
          maxLength: 30,
        })
        .map((w) => w.join(' ')),
      score: fc.double({ min: 0, max: 2, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 10 }),
        fc.array(item, { maxLength: 10 }),
        fc.integer({ min: 5, max: 60 }),
        (memory, candidates, budget) => {
          const fitted = foldMemory([], memory, budget, words);
          const out = foldMemory(fitted, candidates, budget, words);
          if (out.length > 0) expect(words.count(renderMemory(out))).toBeLessThanOrEqual(budget);
        },
      ),
    );
  });

  it('sheds the weakest line when full, ageing older lines', () => {
    const out = foldMemory(
      [
        { text: 'old strong fact about kong', score: 1 },
        { text: 'old weak remark', score: 0.1 },
      ],
      [{ text: 'new fact about pg mounts', score: 0.8 }],
      13,
      words,
    );
    expect(out.map((i) => i.text)).toEqual([
      'old strong fact about kong',
      'new fact about pg mounts',
    ]);
  });

  it('sheds a line another line already half says before a distinct one of the same score', () => {
    const out = foldMemory(
      [
        { text: 'distinct fact: highlight.js colours the html export', score: 1 },
        { text: 'renamed loadEntries to getEntries returning a defensive copy', score: 1 },
      ],
      [{ text: 'added getEntries returning a defensive copy of entries', score: 1 }],
      20,
      words,
    );
    // The remembered variant stays (a new line must outweigh it); the distinct fact is never shed.
    expect(out.map((i) => i.text)).toEqual([
      'distinct fact: highlight.js colours the html export',
      'renamed loadEntries to getEntries returning a defensive copy',
    ]);
  });

  it('skips a candidate whose terms one remembered line already holds', () => {
    const memory = [
      {
        text: 'The writer lock leaked because flush never released it; fixed by releasing the lock after flush',
        score: 1,
      },
    ];
    const out = foldMemory(
      memory,
      [{ text: 'Writer lock leaked: flush never released it', score: 1 }],
      200,
      words,
    );
    expect(out).toEqual(memory);
  });

  it('keeps a full memory as it is for a new line no stronger than its weakest', () => {
    const memory = [
      { text: 'kong buffers requests to disk', score: 1 },
      { text: 'pg mounts a tmpfs volume', score: 1 },
    ];
    const out = foldMemory(memory, [{ text: 'vault renders notes nightly', score: 1 }], 13, words);
    expect(out).toEqual(memory);
    const stronger = foldMemory(
      memory,
      [{ text: 'vault renders notes nightly', score: 1.5 }],
      13,
      words,
    );
    expect(stronger.map((i) => i.text)).toEqual([
      'pg mounts a tmpfs volume',
      'vault renders notes nightly',
    ]);
  });
});
