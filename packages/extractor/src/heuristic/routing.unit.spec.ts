import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';

/*
 * Routing: a line enters the note of the kind of finding it is (route.ts), not every note one of
 * its cue words belongs to. A signal read off a chunk's structure is the kind its structure names
 * (an "Errors and fixes" bullet is a bug, a "Key decisions" bullet a choice), so a fix that names
 * a choice and a choice whose reason was a bug each land in one note; a bug left unsettled is
 * an open question as well.
 */

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';
const OPEN = 'What questions were raised and left unresolved?';

function summary(sections: { heading: string; items: string[] }[]): ChunkRecord {
  const typed = sections.map((s) => ({
    heading: s.heading,
    text: s.items.map((item) => `- ${item}`).join('\n'),
  }));
  return {
    role: 'summary',
    text: typed.map((s) => `## ${s.heading}\n${s.text}`).join('\n\n'),
    sections: typed,
  };
}

async function memoryFor(question: string, record: ChunkRecord): Promise<string> {
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question,
    memory: '',
    chunk: { text: record.text, records: [record] },
    memoryBudget: 400,
  });
  const answer = parseGateAnswer(reply.text);
  return answer.update ? answer.memory : '';
}

const APPEND_ONLY =
  'Sessions were lost on a crash because the file was rewritten in place: we decided to make the session file append-only instead of rewriting it';
const TYPO = 'Fixed a typo in the README heading';

describe('a line lands in the note of what it is', () => {
  it('a fix that states a design choice lands in the bugs note only', async () => {
    const record = summary([{ heading: 'Errors and fixes', items: [APPEND_ONLY, TYPO] }]);
    const bugs = await memoryFor(BUGS, record);
    expect(bugs).toContain('append-only');
    expect(bugs).toContain('typo');
    expect(await memoryFor(DECISIONS, record)).toBe('');
  });

  it('a decision whose reason is a bug found lands in the decisions note only', async () => {
    const record = summary([
      {
        heading: 'Key decisions',
        items: [
          'Chose a write-ahead lock file over flock: the root cause of the corrupted index was two writers on NFS, where flock is ignored',
          'Went with Tailwind for styling',
        ],
      },
    ]);
    expect(await memoryFor(BUGS, record)).toBe('');
    const decisions = await memoryFor(DECISIONS, record);
    expect(decisions).toContain('write-ahead lock file');
    expect(decisions).toContain('Tailwind');
  });

  it('a pending item that is still an open question lands in the open note, a plain task does not leave its note', async () => {
    const record = summary([
      {
        heading: 'Errors and fixes',
        items: [
          'The flaky upload test was silenced with a retry; the root cause is still unknown',
          'Fixed the off-by-one in the pager',
        ],
      },
    ]);
    const open = await memoryFor(OPEN, record);
    expect(open).toContain('flaky upload test');
    expect(open).not.toContain('off-by-one');
  });
});

describe('a question about tool calls and commands takes the tool failures only', () => {
  const TOOLS =
    'Which tool calls or commands failed, with what error, and what was the working form?';

  it('a failed run and a quoted error are kept, a bug of the product and a changelog fix are not', async () => {
    const record = summary([
      {
        heading: 'Errors and fixes',
        items: [
          'The generated migration used ALTER COLUMN, unsupported by SQLite: rewritten as a table copy',
          'Build failed with "error TS2345: Argument of type string is not assignable"; fixed the signature',
          'Users could not log in because the session loader threw before the prompt: it now waits',
          'Fixed terminal detection inside tmux by checking the session env var',
        ],
      },
    ]);
    const tools = await memoryFor(TOOLS, record);
    expect(tools).toContain('ALTER COLUMN');
    expect(tools).toContain('TS2345');
    expect(tools).not.toContain('log in');
    expect(tools).not.toContain('tmux');
    const bugs = await memoryFor(BUGS, record);
    for (const kept of ['ALTER COLUMN', 'TS2345', 'log in', 'tmux']) expect(bugs).toContain(kept);
  });
});

describe("a commit's subject routes by its words, not by an identifier's letters", () => {
  const commit = (subject: string): ChunkRecord => ({
    role: 'tool_call',
    text: `Bash {"command":"git commit -m \\"${subject}\\""}`,
  });

  it('a subject naming resolveApiKey or fixtures is a decision, a fix subject a bug', async () => {
    const chunk: ChunkRecord[] = [
      commit('Use injected resolveApiKey in AgentSession for per-session keys'),
      commit('Load test fixtures from one shared directory'),
      commit('Resolve the lock leak: release the writer lock after flush'),
    ];
    const answer = async (question: string) => {
      const reply = await heuristicController(words).answer({
        level: 'L1',
        question,
        memory: '',
        chunk: { text: chunk.map((r) => r.text).join('\n'), records: chunk },
        memoryBudget: 400,
      });
      return parseGateAnswer(reply.text).memory;
    };
    const decisions = await answer(DECISIONS);
    expect(decisions).toContain('injected resolveApiKey');
    expect(decisions).toContain('test fixtures');
    expect(decisions).not.toContain('lock leak');
    const bugs = await answer(BUGS);
    expect(bugs).toContain('lock leak');
    expect(bugs).not.toContain('resolveApiKey');
    expect(bugs).not.toContain('fixtures');
  });
});
