import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { hedgedDiagnosisSignals } from './hedge-signals.js';
import { sentences } from './text.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const OPEN = 'What questions were raised and left unresolved?';

describe('a line ending in a colon that no list follows', () => {
  it('is split as prose, not dropped as a lead-in', () => {
    expect(
      sentences(
        'The build issue might be related to the configuration. Let me try starting the dev server:',
      ),
    ).toEqual([
      'The build issue might be related to the configuration.',
      'Let me try starting the dev server:',
    ]);
    expect(sentences('We decided on the following:\n- SQLite for the item store')).toEqual([
      'We decided on the following: SQLite for the item store',
    ]);
  });
});

describe('a diagnosis the agent only guesses at', () => {
  it('is an open line; a cause it states firmly, or a guess it then confirms, is not', () => {
    const records: ChunkRecord[] = [
      {
        role: 'assistant',
        text: 'The build issue might be related to the configuration. Let me try starting just the development server.',
      },
      { role: 'assistant', text: 'The crash is caused by a missing env var.' },
      { role: 'assistant', text: 'The timeout may be caused by the proxy.' },
      { role: 'assistant', text: 'Confirmed: the timeout was the proxy, fixed by a bypass rule.' },
    ];
    expect(hedgedDiagnosisSignals(records)).toEqual([
      {
        family: 'open',
        text: 'Unresolved: The build issue might be related to the configuration.',
      },
    ]);
  });

  it('enters the open-questions memory', async () => {
    const records: ChunkRecord[] = [
      { role: 'tool_call', text: 'Bash {"command":"npm run build"}' },
      { role: 'tool_result', text: 'Bash error: exit code 1' },
      { role: 'assistant', text: 'The build issue might be related to the configuration.' },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: OPEN,
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).memory).toContain(
      '- Unresolved: The build issue might be related to the configuration.',
    );
  });
});
