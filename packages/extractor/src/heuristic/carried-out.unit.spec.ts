import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { carriesOut } from './carried-out.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const OPEN = 'What questions were raised and left unresolved?';

/** One controller over a run's chunks, as the loop drives it: memory in, memory out. */
function run() {
  const controller = heuristicController(words);
  let memory = '';
  return async (records: ChunkRecord[]) => {
    const answer = parseGateAnswer(
      (
        await controller.answer({
          level: 'L1',
          question: OPEN,
          memory,
          chunk: { text: records.map((r) => r.text).join('\n'), records, source: 'pi:s' },
          memoryBudget: 300,
        })
      ).text,
    );
    if (answer.update) memory = answer.memory;
    return memory;
  };
}

// The shape of pi-mono-compact's turn 445–491: a request phrased as a question, the agent
// reading, editing, checking, and saying so.
const request: ChunkRecord = {
  role: 'user',
  text: 'can we use the same colors we use in the dark theme?',
};
const reading: ChunkRecord[] = [
  { role: 'assistant', text: 'Good idea. Let me check what colors we use in the TUI theme:' },
  { role: 'tool_call', text: 'read {"path":"src/modes/interactive/theme/dark.json"}' },
  { role: 'tool_result', text: 'read result: "syntaxComment": "#6A9955"' },
];
const editing: ChunkRecord[] = [
  {
    role: 'tool_call',
    text: 'edit {"path":"src/core/export-html.ts","oldText":"#888","newText":"${colors.syntaxComment}"}',
  },
  {
    role: 'tool_result',
    text: 'edit result: Successfully replaced text in src/core/export-html.ts.',
  },
  { role: 'tool_call', text: 'bash {"command":"npm run check"}' },
  { role: 'tool_result', text: 'bash result: Checked 273 files. No fixes applied.' },
];
const done: ChunkRecord = {
  role: 'assistant',
  // Shares no word with the request: the report, not an answer's words, closes it.
  text: 'Done. Exported code blocks now match the TUI palette.',
};
const unresolved: ChunkRecord = {
  role: 'user',
  text: 'is it still unresolved whether the session header carries the model?',
};

describe('a request the agent carries out', () => {
  it('is closed by an edit followed by a report of it done, or by a commit', () => {
    expect(carriesOut([...reading, ...editing, done])).toBe(true);
    expect(
      carriesOut([
        { role: 'tool_call', text: 'bash {"command":"git commit -m \\"Use theme colours\\""}' },
      ]),
    ).toBe(true);
  });

  it('stays open when the agent only looks, or edits and never says it is done', () => {
    expect(carriesOut([...reading, { role: 'assistant', text: 'Done reading.' }])).toBe(false);
    expect(carriesOut([...reading, ...editing])).toBe(false);
    // "Now let me add the changelog entry" narrates the next step; it reports nothing.
    expect(
      carriesOut([...editing, { role: 'assistant', text: 'Now let me add the changelog entry:' }]),
    ).toBe(false);
  });

  it('is no open line when its own chunk holds the work', async () => {
    const step = run();
    const memory = await step([request, ...reading, ...editing, done, unresolved]);
    expect(memory).toContain('session header');
    expect(memory).not.toContain('dark theme');
  });

  it('leaves the memory when the work ends chunks later, with the next update', async () => {
    const step = run();
    // Chunk 1 ends on the request being read into; chunk 2 is the turn's edits alone (no user
    // speaks); chunk 3 opens on the report, then a new question opens the gate.
    expect(await step([request, ...reading])).toContain('dark theme');
    expect(await step(editing)).toContain('dark theme');
    const memory = await step([done, unresolved]);
    expect(memory).toContain('session header');
    expect(memory).not.toContain('dark theme');
  });

  it('stays open when the turn ends without the work (the user spoke first)', async () => {
    const step = run();
    await step([request, ...reading]);
    const memory = await step([
      { role: 'user', text: 'forget that, write a little poem about themes instead' },
      done,
      unresolved,
    ]);
    expect(memory).toContain('dark theme');
  });
});

describe('a request the user follows at once with a second message', () => {
  it('is carried out by the turn after both (pi-mono-session: "skills look good, do we need to update README.md as well wrt skills?" then "we should probably reference existing skill repositorys in skills.md as well")', async () => {
    const step = run();
    const memory = await step([
      {
        role: 'user',
        text: 'skills look good, do we need to update README.md as well wrt skills?',
      },
      {
        role: 'user',
        text: 'we should probably reference existing skill repositories in skills.md as well',
      },
      { role: 'tool_call', text: 'edit {"path":"README.md","oldText":"a","newText":"b"}' },
      { role: 'tool_call', text: 'edit {"path":"docs/skills.md","oldText":"a","newText":"b"}' },
      { role: 'assistant', text: 'Done. Updated: the shorter section and a list of repositories.' },
      unresolved,
    ]);
    expect(memory).toContain('session header');
    expect(memory).not.toContain('wrt skills');
  });
});

describe('an answer whose subject is the question\'s "it"', () => {
  it('answers: "It\'s using the `marked` package, not vendored"', async () => {
    const step = run();
    const memory = await step([
      { role: 'user', text: 'how was markdown rendering added? vendored marked?' },
      { role: 'tool_call', text: 'bash {"command":"grep marked package.json"}' },
      {
        role: 'assistant',
        text: "It's using the `marked` package (npm dependency), not vendored.",
      },
      unresolved,
    ]);
    expect(memory).toContain('session header');
    expect(memory).not.toContain('vendored');
  });
});

describe("the agent's question ending a chunk", () => {
  const offer: ChunkRecord = {
    role: 'assistant',
    text: "The README hooks section already lists the use cases. Anything specific you'd like to add or change in the hooks intro?",
  };

  it('is answered by the user speaking first in the next chunk', async () => {
    const step = run();
    expect(await step([unresolved, offer])).toContain('hooks intro');
    const memory = await step([
      { role: 'user', text: 'could repeat it in hooks.md after the first paragraph' },
      { role: 'user', text: 'is the version header still unresolved for old session files?' },
    ]);
    expect(memory).toContain('version header');
    expect(memory).not.toContain('hooks intro');
  });

  it('stays while the agent alone goes on speaking', async () => {
    const step = run();
    await step([unresolved, offer]);
    const memory = await step([
      {
        role: 'assistant',
        text: 'Is it still unresolved whether the hooks intro should name the examples directory?',
      },
    ]);
    expect(memory).toContain('Anything specific');
  });
});

describe('a request the user adds to while the agent is at work', () => {
  // The shape of pi-mono-compact 338–445: a request, the agent reading, the user adding to it
  // between two tool runs, the agent doing both and committing after the addition.
  const highlight: ChunkRecord = {
    role: 'user',
    text: 'ah good, can we also add syntax highlighting like we do in @packages/coding-agent/src/modes/interactive/components/tool-execution.ts for the read tool?',
  };
  const lookup: ChunkRecord[] = [
    { role: 'assistant', text: 'Let me check how syntax highlighting is done in those files:' },
    {
      role: 'tool_call',
      text: 'bash {"command":"grep -n highlight src/components/tool-execution.ts"}',
    },
    {
      role: 'tool_result',
      text: 'bash result: 16:import { highlightCode, theme } from "../theme/theme.js";',
    },
  ];
  const addition: ChunkRecord = {
    role: 'user',
    text: 'oh, and it would also be nice to display compaction events as expandable blocks, like we do in the tui',
  };
  const commit: ChunkRecord[] = [
    ...editing,
    {
      role: 'tool_call',
      text: 'bash {"command":"git add -A && git commit -m \\"Add syntax highlighting to HTML export using highlight.js\\""}',
    },
    {
      role: 'tool_result',
      text: 'bash result: [main 3f2a1c0] Add syntax highlighting to HTML export',
    },
  ];

  it('is carried out by the turn that goes on past the addition', async () => {
    const step = run();
    const memory = await step([highlight, ...lookup, addition, ...commit, unresolved]);
    expect(memory).toContain('session header');
    expect(memory).not.toContain('syntax highlighting');
  });

  it('leaves the memory when that turn commits chunks later, past an added question', async () => {
    const step = run();
    expect(await step([highlight, ...lookup])).toContain('syntax highlighting');
    // The user asks more while the agent works: the addition does not end the turn.
    expect(await step([...reading.slice(1), request, ...editing.slice(0, 2)])).toContain(
      'syntax highlighting',
    );
    const memory = await step([...commit, done, unresolved]);
    expect(memory).toContain('session header');
    expect(memory).not.toContain('syntax highlighting');
    expect(memory).not.toContain('dark theme');
  });

  it('stays open when the user speaks after the agent has replied', async () => {
    const step = run();
    const memory = await step([
      highlight,
      ...lookup,
      { role: 'assistant', text: 'Two palettes exist, dark and light.' },
      { role: 'user', text: 'fine, then write a short poem about colours instead' },
      ...commit,
      unresolved,
    ]);
    expect(memory).toContain('syntax highlighting');
  });
});

describe('a request that names a file', () => {
  const docs: ChunkRecord = {
    role: 'user',
    text: 'can we improve the custom compaction docs in hooks.md so they show resolveApiKey?',
  };
  const editDocs = (result: string): ChunkRecord[] => [
    { role: 'tool_call', text: 'read {"path":"/repo/packages/coding-agent/docs/hooks.md"}' },
    { role: 'tool_result', text: 'read result: ## Custom compaction' },
    {
      role: 'tool_call',
      text: 'edit {"path":"/repo/packages/coding-agent/docs/hooks.md","oldText":"a","newText":"b"}',
    },
    { role: 'tool_result', text: result },
  ];
  const next: ChunkRecord = { role: 'user', text: 'ok, now bump the patch version and release' };

  it('is carried out by an edit of that file, though the agent never says it is done', async () => {
    const step = run();
    const memory = await step([
      docs,
      ...editDocs('edit result: Successfully replaced text in docs/hooks.md.'),
      next,
      unresolved,
    ]);
    expect(memory).toContain('session header');
    expect(memory).not.toContain('compaction docs');
  });

  it('stays open when that edit failed, or only another file was edited', async () => {
    expect(
      await run()([
        docs,
        ...editDocs('edit error: Could not find the exact text in docs/hooks.md.'),
        next,
        unresolved,
      ]),
    ).toContain('compaction docs');
    expect(await run()([docs, ...editing, next, unresolved])).toContain('compaction docs');
  });

  it('pairs parallel calls with their results in call order', () => {
    const named = ['hooks.md'];
    const edit = {
      role: 'tool_call',
      text: 'edit {"path":"/repo/docs/hooks.md","oldText":"a","newText":"b"}',
    };
    const read = { role: 'tool_call', text: 'read {"path":"/repo/docs/other.md"}' };
    const ok = { role: 'tool_result', text: 'result: done' };
    const error = { role: 'tool_result', text: 'edit error: Could not find the exact text.' };
    // [read, edit, read's result, the edit's error]: the failed edit carries nothing out.
    expect(carriesOut([read, edit, ok, error], false, named)).toBe(false);
    // [edit, read, the edit's result, read's result]: the edit went through.
    expect(carriesOut([edit, read, ok, ok], false, named)).toBe(true);
  });

  it('is carried out across chunks when the next chunk edits that file', async () => {
    const step = run();
    expect(await step([docs])).toContain('compaction docs');
    const memory = await step([
      ...editDocs('edit result: Successfully replaced text in docs/hooks.md.'),
      next,
      unresolved,
    ]);
    expect(memory).not.toContain('compaction docs');
  });
});
