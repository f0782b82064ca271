import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { changelogSignals } from './changelog-signals.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';

const edit = (input: Record<string, unknown>): ChunkRecord => ({
  role: 'tool_call',
  text: `edit ${JSON.stringify(input)}`,
});

const OLD =
  '## [Unreleased]\n\n### Fixed\n\n- **Old fix**: Crash on empty input. ([#280](https://x/280))\n';
const NEW = [
  '## [Unreleased]',
  '',
  '### Added',
  '',
  '- **API keys in settings.json**: Store API keys under `apiKeys`. Settings keys take priority over environment variables. ([#295](https://x/295))',
  '- **SessionManager API cleanup**:',
  '  - Added `getEntries()` method (returns a defensive copy of all entries)',
  '',
  '### Fixed',
  '',
  '- **Allow startup without API keys**: Interactive mode no longer throws when no API keys are configured. ([#288](https://x/288))',
  '- **Old fix**: Crash on empty input. ([#280](https://x/280))',
].join('\n');

describe('changelog signals', () => {
  it('reads the entries an edit adds to a changelog: Added is a decision, Fixed a bug, unchanged entries nothing', () => {
    const signals = changelogSignals([
      edit({ path: '/repo/packages/agent/CHANGELOG.md', oldText: OLD, newText: NEW }),
    ]);
    expect(signals).toEqual([
      {
        family: 'decision',
        text: 'API keys in settings.json: Store API keys under `apiKeys`. Settings keys take priority over environment variables. (#295)',
      },
      {
        family: 'decision',
        text: 'SessionManager API cleanup: Added `getEntries()` method (returns a defensive copy of all entries)',
      },
      {
        family: 'cause',
        text: 'Allow startup without API keys: Interactive mode no longer throws when no API keys are configured. (#288)',
      },
    ]);
  });

  it('reads a Claude Write of a whole changelog, and ignores edits of other files', () => {
    const write: ChunkRecord = {
      role: 'tool_call',
      text: `Write ${JSON.stringify({ file_path: '/r/CHANGELOG.md', content: NEW })}`,
    };
    const other = edit({ path: '/r/README.md', oldText: '', newText: NEW });
    const texts = changelogSignals([write, other]).map((s) => s.text);
    expect(texts).toHaveLength(4);
    expect(texts[3]).toBe('Old fix: Crash on empty input. (#280)');
  });

  it('types an entry edited without its section heading by its own first word', () => {
    const signals = changelogSignals([
      edit({
        path: 'CHANGELOG.md',
        oldText: '- **Hooks**: old text',
        newText:
          '- **Hooks**: The `before_compact` event now includes `previousSummary`.\n- Fixed symlinked skills not loading.',
      }),
    ]);
    expect(signals).toEqual([
      {
        family: 'decision',
        text: 'Hooks: The `before_compact` event now includes `previousSummary`.',
      },
      { family: 'cause', text: 'Fixed symlinked skills not loading.' },
    ]);
  });

  it('brings a changelog entry into the decisions and the bugs memories', async () => {
    const records = [
      edit({ path: '/repo/CHANGELOG.md', oldText: OLD, newText: NEW }),
      { role: 'tool_result', text: 'edit result: Successfully replaced text in CHANGELOG.md.' },
    ];
    const memoryFor = async (question: string) => {
      const reply = await heuristicController(words).answer({
        level: 'L1',
        question,
        memory: '',
        chunk: { text: records.map((r) => r.text).join('\n'), records },
        memoryBudget: 300,
      });
      return parseGateAnswer(reply.text).memory;
    };
    expect(await memoryFor(DECISIONS)).toContain('- API keys in settings.json: Store API keys');
    expect(await memoryFor(BUGS)).toContain('- Allow startup without API keys: Interactive mode');
  });
});

describe('a remembered signal line', () => {
  it('keeps the weight it was chosen with when later prose fills the memory', async () => {
    const controller = heuristicController(words);
    const ask = async (memory: string, records: ChunkRecord[]) =>
      parseGateAnswer(
        (
          await controller.answer({
            level: 'L1',
            question: BUGS,
            memory,
            chunk: { text: records.map((r) => r.text).join('\n'), records },
            memoryBudget: 20,
          })
        ).text,
      );
    const first = await ask('', [
      edit({
        path: 'CHANGELOG.md',
        oldText: '',
        newText: '### Fixed\n\n- Symlinked skills load again.',
      }),
    ]);
    expect(first.memory).toBe('- Symlinked skills load again.');
    const second = await ask(first.memory, [
      { role: 'assistant', text: 'The root cause was a stale cache, cleared on start.' },
      { role: 'assistant', text: 'The loader bug was caused by a race, fixed by a lock.' },
    ]);
    // Read again as plain words the changelog line scores next to nothing and would be shed first.
    expect(second.memory).toContain('- Symlinked skills load again.');
  });
});
