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

const user = (text: string): ChunkRecord => ({ role: 'user', text });
const agent = (text: string): ChunkRecord => ({ role: 'assistant', text });

describe('lines a person joining the project would not keep', () => {
  it('keeps no venting or insult as a decision, and keeps the correction that says what to do', async () => {
    const decisions = await memoryFor(DECISIONS, [
      agent('I will write the parser output to stdout for debugging.'),
      user('stop breaking crap, damn it!'),
      agent('I will keep the retry loop in the HTTP client.'),
      user('No, never log from the library; return a typed error the caller can render.'),
    ]);
    expect(decisions.some((l) => /crap|damn/.test(l))).toBe(false);
    expect(decisions.some((l) => l.includes('return a typed error'))).toBe(true);
  });

  it('keeps no correction that only points at what the reader cannot see', async () => {
    const decisions = await memoryFor(DECISIONS, [
      agent('I moved the helper into its own module.'),
      user('no, leave that as it was'),
    ]);
    expect(decisions).toEqual([]);
  });

  it('keeps no insult or bare fragment as an open question, and keeps a real one', async () => {
    const open = await memoryFor(OPEN, [
      user('are you serious, you idiot? what about the others??'),
      user('and the second one?'),
      user('How should the cache be invalidated when the config file changes on disk?'),
    ]);
    expect(open.filter((l) => /idiot|second one/.test(l))).toEqual([]);
    expect(open.some((l) => l.includes('cache be invalidated'))).toBe(true);
  });

  it('keeps no agent offer of its next step as an open question', async () => {
    const open = await memoryFor(OPEN, [
      agent(
        'The lint step now runs in CI.\n\nUpdate the CONTRIBUTING guide to mention the new lint step as well?',
      ),
    ]);
    expect(open.some((l) => l.includes('CONTRIBUTING'))).toBe(false);
  });

  it('keeps no empty, repository-state or done line from a summary, and keeps a pending task', async () => {
    const pending = [
      '- None mentioned',
      '- No open items identified',
      '- On `develop` branch, clean working tree',
      '- Latest version: 2.3.1',
      '- All requested fixes have been completed and the tests pass.',
      '- `make lint` passes successfully',
      '- Migrate the importer to the streaming parser (blocked on the schema review)',
    ].join('\n');
    const open = await memoryFor(OPEN, [
      {
        role: 'summary',
        text: `## Pending tasks\n${pending}`,
        sections: [{ heading: 'Pending tasks', text: pending }],
      },
    ]);
    expect(open.map((l) => l.replace(/^- /, ''))).toEqual([
      'Migrate the importer to the streaming parser (blocked on the schema review)',
    ]);
  });

  it('reads "None of …" as a statement, not as an empty answer', async () => {
    const decisions = await memoryFor(
      'What architectural decisions were made, with reasoning and rejected alternatives?',
      [
        agent(
          'Key findings:\n\n- None of the lint tools are in the project yet\n- None mentioned\n- Nothing',
        ),
      ],
    );
    expect(decisions.map((l) => l.replace(/^- /, ''))).toEqual([
      'None of the lint tools are in the project yet',
    ]);
  });

  it('keeps a pending task and its remaining steps, not the work done under it', async () => {
    const pending = [
      '- review-7 (in_progress): Close the review session, needs tests and a commit',
      '  - Added the "Close review session" button in the template',
      '  - ✅ Toggle the session state',
      '  - Run the test suite with the new close case',
      '- The review API is now clearer and its lifecycle is documented',
    ].join('\n');
    const open = await memoryFor(OPEN, [
      {
        role: 'summary',
        text: `## Pending tasks\n${pending}`,
        sections: [{ heading: 'Pending tasks', text: pending }],
      },
    ]);
    expect(open.some((l) => l.includes('review-7'))).toBe(true);
    expect(open.some((l) => l.includes('test suite'))).toBe(true);
    expect(open.some((l) => /button|Toggle|clearer/.test(l))).toBe(false);
  });

  it('keeps no command-only checklist step, no "now has" report and no repeated lead-in', async () => {
    // The shapes of the spotter compaction's "Pending Tasks", pi's "### Current State" and a
    // completed-tasks item whose sub-items say what the filed issue holds.
    const pending = [
      '- spotter-gqc.6 (in_progress): Close project review session — needs tests, commit, push',
      '- Run `mix compile --warnings-as-errors`',
      '- Run `mix test` and `mix credo --strict`',
      '- Run `mix test` before every push: the LiveView tests share one sandbox',
    ].join('\n');
    const state = [
      '- Both `custom-tools.md` and README.md have been updated',
      '- The custom-tools.md now has a proper intro explaining use cases and when to use vs alternatives',
    ].join('\n');
    const completed = [
      '3. **Issue #296 - Created issue documenting OAuth/API key mess**',
      '   - Documented current scattered state across ai package and coding-agent',
      '   - Proposed refactor to consolidate in coding-agent with no global state in ai package',
    ].join('\n');
    const open = await memoryFor(OPEN, [
      {
        role: 'summary',
        text: `## Pending Tasks\n${pending}\n### Current State\n${state}\n## Completed Tasks\n${completed}`,
        sections: [
          { heading: 'Pending Tasks', text: pending },
          { heading: 'Current State', text: state },
          { heading: 'Completed Tasks', text: completed },
        ],
      },
    ]);
    expect(open).toEqual([
      '- spotter-gqc.6 (in_progress): Close project review session — needs tests, commit, push',
      '- Run `mix test` before every push: the LiveView tests share one sandbox',
      '- Issue #296 - Created issue documenting OAuth/API key mess: Documented current scattered state across ai package and coding-agent; Proposed refactor to consolidate in coding-agent with no global state in ai package',
    ]);
  });

  it("keeps no agent's offer as an open question, though its subject is dropped", async () => {
    const open = await memoryFor(OPEN, [
      agent('Want to file an issue for cleaning up the session manager API or leave it?'),
    ]);
    expect(open).toEqual([]);
  });
});
