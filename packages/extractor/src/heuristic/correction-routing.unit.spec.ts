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
