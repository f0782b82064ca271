import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';
const OPEN = 'What questions were raised and left unresolved?';

async function memoryFor(question: string, records: ChunkRecord[]): Promise<string[]> {
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question,
    memory: '',
    chunk: { text: records.map((r) => r.text).join('\n'), records },
    memoryBudget: 300,
  });
  const answer = parseGateAnswer(reply.text);
  return answer.update ? answer.memory.split('\n') : [];
}

const summaryText = [
  '## Key decisions',
  '- The item store is SQLite (better-sqlite3), chosen over Postgres because it is embedded.',
  '## Errors and fixes',
  '- Spark DslError "Cannot accept [:state]": the attribute was added after the accept list; adding the attribute first fixed it.',
  '## Pending tasks',
  '- spotter-gqc.7 (review conversation launch) is not started.',
].join('\n');
const summary: ChunkRecord = {
  role: 'summary',
  text: summaryText,
  sections: [
    {
      heading: 'Key decisions',
      text: '- The item store is SQLite (better-sqlite3), chosen over Postgres because it is embedded.',
    },
    {
      heading: 'Errors and fixes',
      text: '- Spark DslError "Cannot accept [:state]": the attribute was added after the accept list; adding the attribute first fixed it.',
    },
    {
      heading: 'Pending tasks',
      text: '- spotter-gqc.7 (review conversation launch) is not started.',
    },
  ],
};

describe('heuristic signals', () => {
  it('answers each question from the summary section of its kind, and only that', async () => {
    const decisions = await memoryFor(DECISIONS, [summary]);
    const bugs = await memoryFor(BUGS, [summary]);
    const open = await memoryFor(OPEN, [summary]);
    expect(decisions.some((l) => l.includes('SQLite (better-sqlite3)'))).toBe(true);
    expect(decisions.some((l) => l.includes('gqc.7'))).toBe(false);
    expect(bugs.some((l) => l.includes('Cannot accept [:state]'))).toBe(true);
    expect(bugs.some((l) => l.includes('SQLite'))).toBe(false);
    expect(open.some((l) => l.includes('gqc.7'))).toBe(true);
    expect(open.some((l) => l.includes('Cannot accept'))).toBe(false);
  });

  it('turns a failing run followed by a passing run of the same command into one bug line with symptom and fix', async () => {
    const bugs = await memoryFor(BUGS, [
      { role: 'tool_call', text: 'Bash {"command":"mix test test/annotations_test.exs"}' },
      {
        role: 'tool_result',
        text: 'Bash error: ** (RuntimeError) expected :secret_key_base to be set in the endpoint config',
      },
      {
        role: 'assistant',
        text: 'The endpoint config for the test env lacked secret_key_base, so I added it to config/test.exs.',
      },
      { role: 'tool_call', text: 'Bash {"command":"mix test test/annotations_test.exs"}' },
      { role: 'tool_result', text: 'Bash: 12 tests, 0 failures' },
    ]);
    const line = bugs.find((l) => l.includes('mix test test/annotations_test.exs'));
    expect(line).toBeDefined();
    expect(line).toContain('secret_key_base to be set');
    expect(line).toContain('config/test.exs');
  });

  it('stores a user correction as a decision with the rejected alternative, never the rejected proposal', async () => {
    const decisions = await memoryFor(DECISIONS, [
      {
        role: 'assistant',
        text: 'I decided to go with Redis for the session cache because it is fast and widely deployed.',
      },
      {
        role: 'user',
        text: "No, don't use Redis; use an in-process LRU cache instead, we ship a single binary.",
      },
    ]);
    expect(decisions.some((l) => l.includes('in-process LRU') && l.includes('Redis'))).toBe(true);
    expect(decisions.some((l) => l.includes('I decided to go with Redis'))).toBe(false);
  });

  it('reads commit messages out of tool calls', async () => {
    const bugs = await memoryFor(BUGS, [
      {
        role: 'tool_call',
        text: 'Bash {"command":"git add -A && git commit -m \\"Fix lock leak: release the writer lock after flush\\""}',
      },
    ]);
    expect(bugs.some((l) => l.includes('Fix lock leak: release the writer lock after flush'))).toBe(
      true,
    );
  });

  it('reads no decision out of a housekeeping commit (a release, a changelog or readme edit)', async () => {
    const commit = (subject: string): ChunkRecord => ({
      role: 'tool_call',
      text: `Bash {"command":"git commit -m \\"${subject}\\""}`,
    });
    const decisions = await memoryFor(DECISIONS, [
      commit('Release v0.27.3'),
      commit('Add changelog entry for Ghostty tmux fix'),
      commit('Update README with settings.json API keys'),
      commit('Use highlight.js for syntax highlighting in the HTML export'),
    ]);
    expect(decisions).toEqual([
      '- Commit: Use highlight.js for syntax highlighting in the HTML export',
    ]);
  });

  it('reads no decision out of a commit whose edits touched only documents, whatever its subject', async () => {
    const edit = (path: string): ChunkRecord => ({
      role: 'tool_call',
      text: `edit ${JSON.stringify({ path, oldText: 'a', newText: 'b' })}`,
    });
    const commit = (subject: string): ChunkRecord => ({
      role: 'tool_call',
      text: `bash {"command":"git add -A && git commit -m \\"${subject}\\" && git push"}`,
    });
    const decisions = await memoryFor(DECISIONS, [
      edit('/repo/packages/agent/docs/hooks.md'),
      commit('Clarify keepRecentTokens is configurable'),
      edit('/repo/packages/agent/examples/hooks/full-compaction.ts'),
      commit('Update full-compaction example to use resolveApiKey'),
      edit('/repo/packages/agent/src/core/agent-session.ts'),
      edit('/repo/packages/agent/docs/hooks.md'),
      commit('Add previousSummary to before_compact hook event'),
      commit('Use injected resolveApiKey in AgentSession'),
    ]);
    // The code commit is a decision; one whose edits the chunk does not show is judged by its subject.
    expect(decisions).toEqual([
      '- Commit: Add previousSummary to before_compact hook event',
      '- Commit: Use injected resolveApiKey in AgentSession',
    ]);
  });

  it('keeps a question nobody answered as open, and drops one answered later', async () => {
    const open = await memoryFor(OPEN, [
      { role: 'user', text: 'mix phx.server doesnt seem to start' },
      { role: 'tool_call', text: 'Bash {"command":"mix phx.server"}' },
      {
        role: 'tool_result',
        text: "Bash error: The user doesn't want to proceed with this tool use.",
      },
    ]);
    expect(open.some((l) => l.includes('mix phx.server doesnt seem to start'))).toBe(true);
    const answered = await memoryFor(OPEN, [
      { role: 'user', text: 'Why does the production build of the web app fail on CI?' },
      {
        role: 'assistant',
        text: 'The production build fails on CI because NODE_ENV is unset there; setting NODE_ENV=production in the workflow fixes the build.',
      },
    ]);
    expect(answered.some((l) => l.includes('Why does the production build'))).toBe(false);
  });

  it('takes a user question as answered only by the reply before the user speaks again', async () => {
    // The agent only looks into the question (an edit reported done would carry it out:
    // carried-out.unit.spec); a later reply to another request (a poem that names the same
    // words) is no answer to it.
    const open = await memoryFor(OPEN, [
      { role: 'user', text: 'Spawn worker instances via tmux, or maybe a custom task tool?' },
      { role: 'tool_call', text: 'read {"path":"README.md"}' },
      { role: 'tool_result', text: 'read result:\n## Philosophy' },
      { role: 'assistant', text: 'Let me look at the README first.' },
      { role: 'user', text: 'write a little poem instead' },
      {
        role: 'assistant',
        text: 'Workers spawn in tmux panes, a custom task tool takes the reins.',
      },
    ]);
    expect(open.some((l) => l.includes('Spawn worker instances via tmux'))).toBe(true);
  });

  it('never keeps process chatter, tables, thinking or bare headings as lines', async () => {
    const bugs = await memoryFor(BUGS, [
      {
        role: 'assistant',
        text: [
          'Perfect! Now let me fix the root cause of the failing bug in the parser.',
          'Now I will check why the tests failed and fix the bug:',
          '| bug | root cause | fixed |',
          '**Root cause and fix:**',
          'Great, the bug is fixed now.',
        ].join('\n'),
      },
      {
        role: 'assistant',
        text: 'The tests failed again after the fix. Let me check why the bug is still failing and fix the root cause.',
      },
      {
        role: 'assistant',
        text: '[thinking] The root cause of the bug might be the parser failing on CRLF, which would explain why it failed; I should fix it.',
      },
    ]);
    expect(bugs.filter((l) => /let me|perfect|great|\||\*\*|thinking|:\s*$/i.test(l))).toEqual([]);
  });

  it('keeps a list whole under its lead-in instead of a line that ends in a colon', async () => {
    const decisions = await memoryFor(DECISIONS, [
      {
        role: 'assistant',
        text: [
          'We decided on the following architecture for the todo app after weighing the alternatives we discussed earlier in the session:',
          '- State lives in a useTodos hook built on useReducer, so every component reads one source of truth.',
          '- Todos persist to localStorage instead of a server, because the app must work offline without any backend.',
          '- Components live under src/components with one file per component and a barrel index for imports.',
        ].join('\n'),
      },
    ]);
    expect(decisions.some((l) => /:\s*$/.test(l))).toBe(false);
    expect(decisions.some((l) => l.includes('useTodos hook built on useReducer'))).toBe(true);
    expect(decisions.some((l) => l.includes('localStorage'))).toBe(true);
  });
});
