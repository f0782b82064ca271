import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { adoptedSuggestionSignals, choiceSignals } from './choice-signals.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';

const asked: ChunkRecord = {
  role: 'assistant',
  text: 'The cache can live in memory (fast, lost on restart) or on disk. I would keep it in memory for now.\n\nOr do you want the disk cache from the start?',
};

describe('a user picking an option the agent offered', () => {
  it('is a decision line carrying the question it answers', () => {
    expect(
      choiceSignals([asked, { role: 'user', text: 'disk, restarts are common on the build box' }]),
    ).toEqual([
      {
        family: 'decision',
        text: 'User decision: disk, restarts are common on the build box (asked: "Or do you want the disk cache from the start?")',
      },
    ]);
  });

  it('reads a choice asked with should it/the, a bare want, which is better, is it ok to', () => {
    for (const [question, reply] of [
      ['Should the config live in YAML or JSON?', 'YAML, comments matter in hand-edited config'],
      ['Want to keep the old flag, or drop it?', 'drop it, nobody passes the flag since v2'],
      ['Which is better here: Redis or Postgres?', 'Postgres, we already run it for the job queue'],
      [
        'Is it OK to drop the column, or keep it?',
        'drop the column, nothing reads it after the migration',
      ],
    ] as const)
      expect(
        choiceSignals([
          { role: 'assistant', text: `The loader works now. ${question}` },
          { role: 'user', text: reply },
        ]),
      ).toHaveLength(1);
  });

  it('is no line for a plain yes, a new request, a question back, or a question with no options', () => {
    const none = (reply: string, question: ChunkRecord = asked) =>
      expect(choiceSignals([question, { role: 'user', text: reply }])).toEqual([]);
    none('yes, go ahead');
    none('rename the module first'); // opens on no word the agent offered
    none('disk or memory, which is faster?');
    none('disk, restarts are common', {
      role: 'assistant',
      text: 'The cache lives on disk now. Should I run the tests?',
    });
    // A bare option picks the next task and gives no reason.
    none('hooks', {
      role: 'assistant',
      text: 'Done with the theme docs. Ready to move on to hooks.md, custom-tools.md, or rpc.md?',
    });
    none('disk', asked);
    // Which task comes next is the session's order of work, not a decision about the project.
    none('custom-tools.md, as before we need to establish what they are good for', {
      role: 'assistant',
      text: 'Added the entry to the CHANGELOG. Ready for custom-tools.md or rpc.md?',
    });
    // An either-or question about facts is answered by a fact: nothing is decided.
    none('still happening, same stack trace in the console', {
      role: 'assistant',
      text: 'I restarted the dev server. Is the error still happening, or is it fixed now?',
    });
    none('macOS, Sonoma 14.2 with the M1 laptop', {
      role: 'assistant',
      text: 'That stack trace points at the renderer. Does the crash happen on Windows or on macOS?',
    });
    none('config file, under ~/.config/uploader/settings.json', {
      role: 'assistant',
      text: 'The request is rejected with 401. Is the API key set in your environment or in the config file?',
    });
    // A long reply is a message of its own, read by the other signals.
    none(
      'disk, because the build box restarts every night and we lose the warm cache each time, which costs us ten minutes per run',
    );
  });

  it('enters the decisions memory', async () => {
    const records: ChunkRecord[] = [
      asked,
      { role: 'user', text: 'disk, restarts are common on the build box' },
      { role: 'tool_call', text: 'edit {"path":"src/cache.ts"}' },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: DECISIONS,
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).memory).toContain(
      'User decision: disk, restarts are common on the build box (asked: "Or do you want the disk cache from the start?")',
    );
  });
});

describe('a user suggestion the agent carries out', () => {
  const suggestion: ChunkRecord = {
    role: 'user',
    text: 'Run workers as separate processes. or maybe a thread pool like the indexer uses?',
  };
  const adopted: ChunkRecord[] = [
    suggestion,
    { role: 'assistant', text: '[thinking] The user suggests a thread pool. Let me update it.' },
    { role: 'tool_call', text: 'edit {"path":"docs/workers.md","oldText":"a","newText":"b"}' },
    { role: 'tool_result', text: 'Successfully replaced text in docs/workers.md.' },
    { role: 'assistant', text: 'Done. The workers section now mentions both options.' },
  ];

  it('is a decision line; one the agent only discusses, or a reminder, is not', () => {
    expect(adoptedSuggestionSignals(adopted)).toEqual([
      {
        family: 'decision',
        text: 'User decision: Run workers as separate processes. or maybe a thread pool like the indexer uses?',
      },
    ]);
    expect(
      adoptedSuggestionSignals([
        suggestion,
        { role: 'assistant', text: 'A thread pool would share memory with the indexer, though.' },
      ]),
    ).toEqual([]);
    expect(
      adoptedSuggestionSignals([
        { ...suggestion, text: 'what about the retry limit?' },
        ...adopted.slice(1),
      ]),
    ).toEqual([]);
  });

  it('is no line for a "why not" or "how about" that asks about a fact, or work on something else', () => {
    const fixedCi: ChunkRecord[] = [
      {
        role: 'tool_call',
        text: 'edit {"path":".github/workflows/ci.yml","oldText":"a","newText":"b"}',
      },
      { role: 'tool_result', text: 'Successfully replaced text in .github/workflows/ci.yml.' },
      {
        role: 'assistant',
        text: 'Fixed the CI workflow: the test job now installs the fixtures first.',
      },
    ];
    const none = (text: string, turn: ChunkRecord[] = fixedCi) =>
      expect(adoptedSuggestionSignals([{ role: 'user', text }, ...turn])).toEqual([]);
    none('The tests pass locally, why not in CI?');
    none('The page still renders blank. Why not?');
    // A proposal, but the turn's work shares no term with it.
    none('Why not cache the thumbnails on disk?');
    // The same proposal carried out is a decision, "how about we …" too.
    expect(
      adoptedSuggestionSignals([
        { role: 'user', text: 'The page loads slowly. How about we cache the thumbnails on disk?' },
        {
          role: 'tool_call',
          text: 'edit {"path":"src/thumbnails.ts","oldText":"a","newText":"b"}',
        },
        { role: 'tool_result', text: 'Successfully replaced text in src/thumbnails.ts.' },
        { role: 'assistant', text: 'Done. Thumbnails are now cached on disk under .cache/.' },
      ]),
    ).toHaveLength(1);
    // The same proposal carried out is a decision.
    expect(
      adoptedSuggestionSignals([
        { role: 'user', text: 'The page loads slowly. Why not cache the thumbnails on disk?' },
        {
          role: 'tool_call',
          text: 'edit {"path":"src/thumbnails.ts","oldText":"a","newText":"b"}',
        },
        { role: 'tool_result', text: 'Successfully replaced text in src/thumbnails.ts.' },
        { role: 'assistant', text: 'Done. Thumbnails are now cached on disk under .cache/.' },
      ]),
    ).toHaveLength(1);
  });

  it('enters the decisions memory', async () => {
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: DECISIONS,
      memory: '',
      chunk: { text: adopted.map((r) => r.text).join('\n'), records: adopted },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).memory).toContain(
      'User decision: Run workers as separate processes. or maybe a thread pool like the indexer uses?',
    );
  });
});
