import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { concessionSignals } from './concession-signals.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';

describe('the agent conceding a correction', () => {
  it('is a decision line stating what the user set right; a plain agreement is not', () => {
    const records: ChunkRecord[] = [
      { role: 'user', text: 'the queue entry goes at the end, it is never put in the middle' },
      {
        role: 'assistant',
        text: "Ah, you're right. The queue entry is appended, not inserted. Let me fix the diagram:",
      },
      { role: 'user', text: 'and the retries?' },
      { role: 'assistant', text: "You're absolutely right! Let me check that." },
      { role: 'assistant', text: 'The retry count is three.' },
      { role: 'assistant', text: 'Good catch — the cache key must include the locale.' },
      { role: 'assistant', text: "You're right to question this. Let me look again." },
      { role: 'user', text: 'the theme colours are wrong' },
      { role: 'tool_call', text: 'Read {"file_path":"theme.json"}' },
      { role: 'assistant', text: "You're right. I'm an idiot - those are already correct." },
      { role: 'user', text: 'and the tool box?' },
      { role: 'assistant', text: 'You are right. That makes much more sense - two colours.' },
    ];
    expect(concessionSignals(records)).toEqual([
      {
        family: 'decision',
        text: 'Corrected: The queue entry is appended, not inserted.',
        rides: true,
        byWords: true,
      },
      {
        family: 'decision',
        text: 'Corrected: the cache key must include the locale.',
        rides: true,
        byWords: true,
      },
    ]);
  });

  it('enters the decisions memory', async () => {
    const records: ChunkRecord[] = [
      { role: 'user', text: 'no, the entry is appended at the end' },
      {
        role: 'assistant',
        text: "You're right. The compaction entry is appended, not inserted. Let me update it.",
      },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: DECISIONS,
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).memory).toContain(
      '- Corrected: The compaction entry is appended, not inserted.',
    );
  });

  it('never opens the gate by itself: it joins an update the chunk makes anyway', async () => {
    const records: ChunkRecord[] = [
      { role: 'user', text: 'is the entry appended at the end?' },
      { role: 'assistant', text: "You're right. The compaction entry is appended, not inserted." },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: DECISIONS,
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).update).toBe(false);
  });
});
