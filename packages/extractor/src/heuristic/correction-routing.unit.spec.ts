import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';

/*
 * A user telling the agent its picture of the system is wrong ("this is not how it works, the
 * queue is FIFO") states how the system is: a decision-note line, not an open problem report.
 */

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';
const OPEN = 'What questions were raised and left unresolved?';

async function memoryFor(question: string, records: ChunkRecord[]): Promise<string[]> {
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question,
    memory: '',
    chunk: { text: records.map((r) => r.text).join('\n'), records },
    memoryBudget: 400,
  });
  const answer = parseGateAnswer(reply.text);
  return answer.update ? answer.memory.split('\n') : [];
}

const exchange: ChunkRecord[] = [
  {
    role: 'assistant',
    text: 'The worker rewrites the job table in place when a job is retried.',
  },
  {
    role: 'user',
    text: 'this is not how it works. the job table is append only, a retry adds a new row',
  },
];

describe('a user correction of how the system works', () => {
  it('is a decision line, not an open question', async () => {
    const decisions = await memoryFor(DECISIONS, exchange);
    const open = await memoryFor(OPEN, exchange);
    expect(decisions.some((l) => l.includes('append only'))).toBe(true);
    expect(open.some((l) => l.includes('append only'))).toBe(false);
  });
});

describe('a user telling the agent to use one thing, not another', () => {
  it('is a decision line with its rejected alternative', async () => {
    const decisions = await memoryFor(DECISIONS, [
      {
        role: 'assistant',
        text: 'The themes map each colour to a 256-colour palette index.',
      },
      { role: 'user', text: 'use plain rgb hex values in the theme files, not palette indices!' },
    ]);
    expect(decisions).toEqual([
      '- User decision: use plain rgb hex values in the theme files, not palette indices!',
    ]);
  });

  it('keeps the rule without the abuse it was said with', async () => {
    const decisions = await memoryFor(DECISIONS, [
      {
        role: 'user',
        text: 'omfg use the damn rgb hex values in the fucking theme files, not palette indices!',
      },
    ]);
    expect(decisions).toEqual([
      '- User decision: use the rgb hex values in the theme files, not palette indices!',
    ]);
  });

  it('is no decision when "not" only negates what follows inside the sentence', async () => {
    const decisions = await memoryFor(DECISIONS, [
      { role: 'user', text: 'use the logger we have, it is not slow at all in my runs' },
    ]);
    expect(decisions.some((l) => l.startsWith('- User decision'))).toBe(false);
  });
});

describe('a user correcting how the agent works, not how the project is built', () => {
  it('is no decision ("stop commiting everything"); a correction naming a part still is', async () => {
    const lines = await memoryFor(DECISIONS, [
      { role: 'assistant', text: 'Committed the theme loader change and pushed it to main.' },
      { role: 'user', text: 'stop commiting everything' },
      { role: 'assistant', text: 'The export writes every theme colour into the HTML header.' },
      { role: 'user', text: 'no, push only `theme.json` changes through the release script' },
    ]);
    expect(lines.some((l) => l.includes('stop commiting'))).toBe(false);
    expect(lines.some((l) => l.includes('release script'))).toBe(true);
  });
});
