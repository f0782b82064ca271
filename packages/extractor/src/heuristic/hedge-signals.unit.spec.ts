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

// The ccviewer subagent's build: two failing runs, then the guess (records as the Claude reader
// renders them).
const BUILD_FAILS: ChunkRecord[] = [
  {
    role: 'tool_call',
    text: 'Bash {"command":"npm run build","description":"Build the TODO app"}',
  },
  {
    role: 'tool_result',
    text: 'Bash error: npm warn Unknown env config "store-dir". This will stop working in the next major version of npm.\n\n> Build error occurred\n[TypeError: generate is not a function]\n\n> todo-app@0.1.0 build\n> next build',
  },
  { role: 'assistant', text: 'There seems to be a build issue. Let me check the package.json:' },
  { role: 'tool_call', text: 'Read {"file_path":"/path/to/Demo/todo-app/package.json"}' },
  {
    role: 'tool_result',
    text: 'Read result: {"name": "todo-app", "scripts": {"build": "next build"}}',
  },
];

describe('a diagnosis the agent only guesses at', () => {
  it('is an open line naming what failed; a cause it states firmly, or a guess it then confirms, is not', () => {
    const records: ChunkRecord[] = [
      ...BUILD_FAILS,
      {
        role: 'assistant',
        text: 'The build issue might be related to the configuration. Let me try starting just the development server.',
      },
      { role: 'assistant', text: 'The crash is caused by a missing env var.' },
      { role: 'assistant', text: 'The timeout in `fetchFeed` may be caused by the proxy.' },
      {
        role: 'assistant',
        text: 'Confirmed: the timeout in `fetchFeed` was the proxy, fixed by a bypass rule.',
      },
    ];
    expect(hedgedDiagnosisSignals(records)).toEqual([
      {
        family: 'open',
        text: 'Unresolved: `npm run build` failed with "TypeError: generate is not a function"; the build issue might be related to the configuration.',
        leftFailing: true,
      },
    ]);
  });

  it('that names nothing and follows no failing run is no line; one that names its subject is', () => {
    expect(
      hedgedDiagnosisSignals([
        { role: 'assistant', text: 'The build issue might be related to the configuration.' },
        { role: 'assistant', text: 'The flicker may be caused by `renderFrame` redrawing twice.' },
      ]).map((s) => s.text),
    ).toEqual(['Unresolved: The flicker may be caused by `renderFrame` redrawing twice.']);
  });

  it('enters the open-questions memory', async () => {
    const records: ChunkRecord[] = [
      ...BUILD_FAILS,
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
      '- Unresolved: `npm run build` failed with "TypeError: generate is not a function"; the build issue might be related to the configuration.',
    );
  });
});

describe('a run left failing, its error quoted, asked by the tool-failures question', () => {
  const TOOLS =
    'Which tool calls or commands failed, with what error, and what was the working form?';
  const BUGS =
    'What bugs or failures were found, what was the root cause, and how were they fixed?';
  const askAt = async (question: string, records: ChunkRecord[]) =>
    parseGateAnswer(
      (
        await heuristicController(words).answer({
          level: 'L1',
          question,
          memory: '',
          chunk: { text: records.map((r) => r.text).join('\n'), records },
          memoryBudget: 200,
        })
      ).text,
    );
  const ask = (records: ChunkRecord[]) => askAt(TOOLS, records);

  it('is a tool failure as well as open: the error is known, the working form is not', async () => {
    const answer = await ask([
      ...BUILD_FAILS,
      {
        role: 'assistant',
        text: 'The build issue might be related to the configuration. Let me try starting just the development server.',
      },
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('generate is not a function');
  });

  it('an open question about exit codes, which no run failed with, stays out of the tool-failures and bugs notes', async () => {
    const asked: ChunkRecord[] = [
      {
        role: 'user',
        text: 'Should `mem import` exit with code 2 when a row is invalid, or skip the row and warn?',
      },
      { role: 'assistant', text: "I'll look at the import pipeline first." },
    ];
    const pending: ChunkRecord[] = [
      {
        role: 'assistant',
        text: '## Pending Tasks\n\n- Decide whether `mem verify` should exit with code 3 or 1 on a stale projection',
      },
    ];
    // The negative builds open lines: the open-questions note takes them.
    expect((await askAt(OPEN, asked)).memory).toContain('exit with code 2');
    expect((await askAt(OPEN, pending)).memory).toContain('exit with code 3');
    for (const records of [asked, pending]) {
      expect((await ask(records)).update).toBe(false);
      expect((await askAt(BUGS, records)).update).toBe(false);
    }
  });
});
