import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { userReportSignals } from './malfunction-signals.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';

describe('a malfunction the user reports', () => {
  it('is a bug line in the user’s words; requests, pastes and praise are not', () => {
    const records: ChunkRecord[] = [
      { role: 'user', text: 'start phoenix in background' },
      {
        role: 'user',
        text: 'scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions',
      },
      { role: 'user', text: 'the login page is broken on Safari.' },
      { role: 'user', text: 'great, that works now' },
      { role: 'user', text: "don't we load all entries on session manager construction?" },
      { role: 'user', text: 'the build does not work', pasted: 'a tool dump' },
      { role: 'assistant', text: 'The server does not start because the port is taken.' },
    ];
    expect(userReportSignals(records)).toEqual([
      {
        family: 'cause',
        text: 'User reports: scrolling back in xterm.js still does not work (maybe because outer web catches it)?',
      },
      { family: 'cause', text: 'User reports: the login page is broken on Safari.' },
    ]);
  });

  it('reads something done wrongly as a malfunction, not only something that does not run', () => {
    const records: ChunkRecord[] = [
      {
        role: 'user',
        text: "this doesn't set firstKeptIndex correctly, we'd want it to point to c, no?",
      },
      { role: 'user', text: 'the importer does not handle quoted commas properly' },
      { role: 'user', text: 'did it set the index correctly?' },
      { role: 'user', text: "the page doesn't look right yet, but that's fine for now." },
    ];
    expect(userReportSignals(records).map((s) => s.text)).toEqual([
      "User reports: this doesn't set firstKeptIndex correctly, we'd want it to point to c, no?",
      'User reports: the importer does not handle quoted commas properly',
    ]);
  });

  it('enters the bugs memory', async () => {
    const records: ChunkRecord[] = [
      { role: 'user', text: "mix phx.server doesn't start anymore" },
      { role: 'tool_call', text: 'Bash {"command":"mix phx.server"}' },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: BUGS,
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).memory).toContain(
      "- User reports: mix phx.server doesn't start anymore",
    );
  });
});
