import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const OPEN = 'What questions were raised and left unresolved?';

async function step(memory: string, records: ChunkRecord[]) {
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question: OPEN,
    memory,
    chunk: { text: records.map((r) => r.text).join('\n'), records },
    memoryBudget: 300,
  });
  return parseGateAnswer(reply.text);
}

const earlier: ChunkRecord = {
  role: 'user',
  text: 'is the symlinked skills directory supported by the loader at all?',
};
const asked: ChunkRecord = {
  role: 'user',
  text: 'why does the session file keep the compaction entry after the cut point?',
};

describe('a question answered in the next chunk', () => {
  it('leaves the open-questions memory when the next chunk opens with the answer', async () => {
    const first = await step('', [earlier, asked]);
    expect(first.update).toBe(true);
    expect(first.memory).toContain('compaction entry');
    const answer: ChunkRecord = {
      role: 'assistant',
      text: 'The session file is append-only: the compaction entry records firstKeptEntryIndex, and only the LLM context changes.',
    };
    // The chunk's own finding opens the gate; the answered question leaves with that update.
    const found: ChunkRecord = {
      role: 'user',
      text: 'is it still unresolved whether the version header is required?',
    };
    const next = await step(first.memory, [answer, found]);
    expect(next.update).toBe(true);
    expect(next.memory).not.toContain('compaction entry after the cut point');
    expect(next.memory).toContain('symlinked skills');
    expect(next.memory).toContain('version header');
  });

  it('waits for an update of its own: a chunk that only answers writes nothing', async () => {
    const first = await step('', [earlier, asked]);
    const answer: ChunkRecord = {
      role: 'assistant',
      text: 'The session file is append-only: the compaction entry records firstKeptEntryIndex.',
    };
    const next = await step(first.memory, [answer, { role: 'user', text: 'ok thanks' }]);
    expect(next.update).toBe(false);
  });

  it('stays open when the next chunk opens on something else', async () => {
    const first = await step('', [earlier, asked]);
    const unrelated: ChunkRecord = {
      role: 'assistant',
      text: 'The theme loader now falls back to the dark theme on an invalid colour.',
    };
    const next = await step(first.memory, [unrelated]);
    const memory = next.update ? next.memory : first.memory;
    expect(memory).toContain('compaction entry after the cut point');
  });

  it('stays open when the user speaks first in the next chunk (the reply answers the user)', async () => {
    const first = await step('', [earlier, asked]);
    const next = await step(first.memory, [
      { role: 'user', text: 'also, what about the session file header?' },
      { role: 'assistant', text: 'The session file header holds the version and the cwd.' },
    ]);
    const memory = next.update ? next.memory : first.memory;
    expect(memory).toContain('compaction entry after the cut point');
  });

  it('stays open when the user spoke after it in its own chunk (the next reply answers that)', async () => {
    // One controller over both chunks, as a run is: it knows which question the first chunk
    // asked in its last turn. Here the user asked, then made another request.
    const controller = heuristicController(words);
    const ask = async (memory: string, records: ChunkRecord[]) =>
      parseGateAnswer(
        (
          await controller.answer({
            level: 'L1',
            question: OPEN,
            memory,
            chunk: { text: records.map((r) => r.text).join('\n'), records },
            memoryBudget: 300,
          })
        ).text,
      );
    const first = await ask('', [
      earlier,
      asked,
      { role: 'tool_call', text: 'read {"path":"session.ts"}' },
      { role: 'user', text: 'write a little poem about the session file instead' },
    ]);
    expect(first.memory).toContain('compaction entry after the cut point');
    const next = await ask(first.memory, [
      {
        role: 'assistant',
        text: 'The session file keeps every entry, the compaction entry too, line after line.',
      },
      { role: 'user', text: 'is the version header still unresolved for old session files?' },
    ]);
    const memory = next.update ? next.memory : first.memory;
    expect(memory).toContain('compaction entry after the cut point');
  });

  it('leaves when the answer opens on narration ("I see."): the reply is read without its chatter', async () => {
    const first = await step('', [earlier, asked]);
    const answer: ChunkRecord = {
      role: 'assistant',
      text: 'I see. The session file is append-only: the compaction entry records firstKeptEntryIndex.',
    };
    const found: ChunkRecord = {
      role: 'user',
      text: 'is it still unresolved whether the version header is required?',
    };
    const next = await step(first.memory, [answer, found]);
    expect(next.update).toBe(true);
    expect(next.memory).not.toContain('compaction entry after the cut point');
  });
});

describe('a question answered in its own turn', () => {
  it('is no line, neither as an open question nor as prose; nor is the agent offering its next step', async () => {
    const answer = await step('', [
      {
        role: 'user',
        text: 'loadSessionFromEntries is kind of a bad name for this no? alternatives?',
      },
      {
        role: 'assistant',
        text: 'It does more than load. Some alternatives: buildSessionContext or reconstructSession.',
      },
      {
        role: 'assistant',
        text: 'The rename is done.\nRun `npm run check` to verify the session-manager.ts change compiles?',
      },
      {
        role: 'user',
        text: 'yes, and is the version header still required for old session files?',
      },
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('version header');
    expect(answer.memory).not.toContain('bad name');
    expect(answer.memory).not.toContain('npm run check');
  });
});

describe("a question ending an agent's headed report", () => {
  it("is no item of the report's list", async () => {
    const BUGS =
      'What bugs or failures were found, what was the root cause, and how were they fixed?';
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: BUGS,
      memory: '',
      chunk: {
        text: '',
        records: [
          {
            role: 'assistant',
            text: '**Fixes:**\n- Error handling: fixed the hook runner swallowing tool_call errors; now only errors block\n- Ready for custom-tools.md or rpc.md?',
          },
        ],
      },
      memoryBudget: 300,
    });
    const answer = parseGateAnswer(reply.text);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('only errors block');
    expect(answer.memory).not.toContain('Ready for');
  });
});

describe('work handed on to an issue', () => {
  it('is open even when a summary lists it among the completed tasks', async () => {
    const text =
      '1. **Issue #296 - Created issue documenting OAuth/API key mess**\n   - Proposed refactor to consolidate key handling in coding-agent\n2. **Issue #288 - Allow startup without API keys**\n   - sdk.ts no longer throws when no model is available';
    const answer = await step('', [
      {
        role: 'summary',
        text: `## Completed Tasks\n${text}`,
        sections: [{ heading: 'Completed Tasks', text }],
      },
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('OAuth/API key mess');
    expect(answer.memory).not.toContain('#288');
  });
});
