import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';
import { isChatter } from './chatter.js';
import { recordSections, sectionSignals } from './summary-signals.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';

// The shape of a Claude Code compaction summary: its choices sit in descriptive sections.
const concepts = [
  '- Phoenix LiveView hooks (JS), event handling, push_event, phx-hook',
  '- AshSqlite data layer with SQLite-safe migrations (table rewrite pattern for nullability changes)',
  '- Beads (bd) for issue tracking with dependency chains',
  '- TranscriptRenderer message ID normalization (prefer DB `id` over JSONL `uuid`)',
  '- Ecto sandbox `{:shared, self()}` mode required for LiveView tests (separate process)',
].join('\n');
const summary: ChunkRecord = {
  role: 'summary',
  text: `## Key Technical Concepts\n${concepts}`,
  sections: [{ heading: 'Key Technical Concepts', text: concepts }],
};

describe('a choice stated in a descriptive section of a summary', () => {
  it('is a decision signal; a plain description stays prose', () => {
    const { signals, prose } = sectionSignals(summary.sections!);
    expect(signals.map((s) => [s.family, s.text])).toEqual([
      [
        'decision',
        'AshSqlite data layer with SQLite-safe migrations (table rewrite pattern for nullability changes)',
      ],
      [
        'decision',
        'TranscriptRenderer message ID normalization (prefer DB `id` over JSONL `uuid`)',
      ],
      [
        'decision',
        'Ecto sandbox `{:shared, self()}` mode required for LiveView tests (separate process)',
      ],
    ]);
    expect(prose.join('\n')).toContain('Beads (bd) for issue tracking');
    expect(prose.join('\n')).not.toContain('prefer DB');
  });

  it('enters the decisions memory, the descriptions do not', async () => {
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: DECISIONS,
      memory: '',
      chunk: { text: summary.text, records: [summary] },
      memoryBudget: 300,
    });
    const answer = parseGateAnswer(reply.text);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('prefer DB `id` over JSONL `uuid`');
    expect(answer.memory).toContain('table rewrite pattern');
    expect(answer.memory).not.toContain('Beads (bd)');
  });

  it('reads a default the project settled on as a choice', () => {
    const files = [
      '- **`lib/annotation.ex`** — Core annotation resource.',
      '  - Added `:source` atom attribute (`:terminal`/`:transcript`, default `:terminal`)',
      '  - Added flash message display div',
    ].join('\n');
    const { signals } = sectionSignals([{ heading: 'Files and Code Sections', text: files }]);
    expect(signals.map((s) => s.text)).toEqual([
      expect.stringContaining(
        'Added `:source` atom attribute (`:terminal`/`:transcript`, default `:terminal`)',
      ),
    ]);
  });

  it('reads a section whose whole list is indented (a numbered summary heading) item by item', () => {
    const indented = concepts
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n');
    const { signals } = sectionSignals([{ heading: 'Key Technical Concepts', text: indented }]);
    expect(signals.map((s) => s.text)).toEqual(
      sectionSignals(summary.sections!).signals.map((s) => s.text),
    );
  });

  it('reads a report section that names a design area (state, storage, data model) as decisions', () => {
    const report: ChunkRecord = {
      role: 'assistant',
      text: [
        'The app is ready. Here is what was built:',
        '',
        '### ⚡ **Advanced State Management**',
        '- Custom `useCart` hook with `useReducer`',
        '- sessionStorage persistence across reloads',
        '',
        '### 🎨 **Modern UI**',
        '- Responsive layout with a gradient background',
      ].join('\n'),
    };
    const { sections } = recordSections(report);
    const { signals, prose } = sectionSignals(sections);
    expect(signals.map((s) => [s.family, s.text])).toEqual([
      ['decision', 'Custom `useCart` hook with `useReducer`'],
      ['decision', 'sessionStorage persistence across reloads'],
    ]);
    expect(prose.join('\n')).toContain('Responsive layout');
  });
});

describe('a section under a heading that names its family', () => {
  it('takes the family of the heading it sits under when its own names none', async () => {
    const resolution = '1. settings.json apiKeys\n2. Environment variables last';
    const state = '- AgentSession takes an injected resolver in its config, not a global lookup';
    const record: ChunkRecord = {
      role: 'summary',
      text: `## Key Architecture Decisions\n### API Key Resolution Priority\n${resolution}\n### Avoiding Global State\n${state}`,
      sections: [
        { heading: 'Key Architecture Decisions', text: '' },
        {
          heading: 'API Key Resolution Priority',
          text: resolution,
          path: ['Key Architecture Decisions'],
        },
        { heading: 'Avoiding Global State', text: state, path: ['Key Architecture Decisions'] },
      ],
    };
    const signals = sectionSignals(record.sections!).signals;
    // Each item read under its heading: the heading is the subject the items leave out.
    expect(signals.map((s) => [s.family, s.text])).toEqual([
      [
        'decision',
        'API Key Resolution Priority: settings.json apiKeys; Environment variables last',
      ],
      [
        'decision',
        'Avoiding Global State: AgentSession takes an injected resolver in its config, not a global lookup',
      ],
    ]);
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: DECISIONS,
      memory: '',
      chunk: { text: record.text, records: [record] },
      memoryBudget: 400,
    });
    expect(parseGateAnswer(reply.text).memory).toContain('injected resolver');
  });

  it('reads a sub-item that states a choice and its reason, whatever its parent was', () => {
    // The stop-33 reviewer's sub-item, under parents the section still refuses.
    const text = [
      '- Implementation:',
      '  - Type and emission sites in `render.ts` were updated',
      '  - Rendered with resvg instead of Chromium, because Chromium adds 150 MB to the install',
      '- Added a diagram of the export pipeline to `docs/export.md`:',
      '  - The exporter streams pages instead of buffering them, because 500-page books ran out of memory',
      '  - The page box and its arrows',
      '- Kept YAML for config',
    ].join('\n');
    const { signals } = sectionSignals([{ heading: 'Key Decisions', text }]);
    expect(signals.map((s) => s.text)).toEqual([
      'Rendered with resvg instead of Chromium, because Chromium adds 150 MB to the install',
      'The exporter streams pages instead of buffering them, because 500-page books ran out of memory',
      'Kept YAML for config',
    ]);
  });

  it('reads no item that edits the docs, nor what the edited drawing shows', () => {
    // Written for this spec (the demo's compaction summary had this shape).
    const text = [
      '1. **Queue States**:',
      '    * **Decision**: Detailed diagrams were created and refined in `docs/queue.md` to illustrate:',
      '        * The state of a job before its lease expires, with its owner and deadline.',
      '        * The state after a retry, where a new attempt entry is appended to the job.',
      '    * **Refinements**:',
      '        * Corrected the arrow labels and box alignments for clarity.',
      '2. **Lease Length**:',
      '    * **Decision**: Leases last 30 seconds because workers renew them every 10 seconds.',
    ].join('\n');
    const { signals } = sectionSignals([{ heading: 'Key Decisions', text }]);
    expect(signals.map((s) => s.text)).toEqual([
      'Lease Length: Decision: Leases last 30 seconds because workers renew them every 10 seconds.',
    ]);
  });

  it('keeps no feature label that names nothing, and keeps the items that name a part', () => {
    const built = [
      '- Custom `useTodos` hook with `useReducer`',
      '- localStorage persistence across sessions',
      '- Complete CRUD operations with error handling',
      '- Real-time filtering and computed statistics',
    ].join('\n');
    const { signals } = sectionSignals([{ heading: 'Advanced State Management', text: built }]);
    expect(signals.map((s) => s.text)).toEqual([
      'Custom `useTodos` hook with `useReducer`',
      'localStorage persistence across sessions',
      'Complete CRUD operations with error handling',
    ]);
  });
});

describe('a step of a pending list that is a command alone', () => {
  it('is no line, nor is a step that only runs commands; the task and a step that says why are', () => {
    const steps = [
      '- spotter-gqc.6 (in_progress): Close project review session, needs tests and a commit',
      '- Run `mix test` and `mix credo --strict`',
      '- `bd close spotter-gqc.6`',
      '- Run `mix ecto.reset` first: the review migrations changed the sessions table',
    ].join('\n');
    const { signals } = sectionSignals([{ heading: 'Pending Tasks', text: steps }]);
    const kept = signals.map((s) => s.text).filter((text) => !isChatter(text));
    expect(kept).toEqual([
      'spotter-gqc.6 (in_progress): Close project review session, needs tests and a commit',
      'Run `mix ecto.reset` first: the review migrations changed the sessions table',
    ]);
  });
});

describe('a summary whose reader gave its sections no heading path', () => {
  it('reads the path off the markdown: a topic section under a decisions heading is decisions, its work report is not', () => {
    const state =
      '- `AgentSession` now takes `resolveApiKey` in its config\n- Implementation: `sdk.ts` and `agent-session.ts` were updated';
    const text = `# Checkpoint\n## Completed Tasks\n- Released v0.27.3\n## Key Architecture Decisions\n### Avoiding Global State\n${state}\n## Important Files\n- sdk.ts`;
    const record: ChunkRecord = {
      role: 'summary',
      text,
      sections: [
        { heading: 'Checkpoint', text: '', path: [] },
        { heading: 'Completed Tasks', text: '- Released v0.27.3', path: [] },
        { heading: 'Key Architecture Decisions', text: '', path: [] },
        { heading: 'Avoiding Global State', text: state, path: [] },
        { heading: 'Important Files', text: '- sdk.ts', path: [] },
      ],
    };
    const { sections } = recordSections(record);
    expect(sections.map((s) => s.path)).toEqual([
      [],
      ['Checkpoint'],
      ['Checkpoint'],
      ['Checkpoint', 'Key Architecture Decisions'],
      ['Checkpoint'],
    ]);
    expect(sectionSignals(sections).signals).toEqual([
      {
        family: 'decision',
        text: 'Avoiding Global State: `AgentSession` now takes `resolveApiKey` in its config',
      },
    ]);
  });
});

describe("a summary whose reader gave its sections' heading paths", () => {
  // A Claude summary's numbered sections with a bash block indented under one of them.
  const files = '   - `build.sh`: packs the theme files';
  const text = [
    '1. Primary Request and Intent:',
    '   Ship the theme loader',
    '2. Key Technical Concepts:',
    '   ```bash',
    '   # Fix the permissions before the build',
    '   chmod +x build.sh',
    '   ```',
    '3. Files and Code Sections:',
    files,
  ].join('\n');

  it('keeps them as given: a section at the top level sits under nothing', () => {
    const record: ChunkRecord = {
      role: 'summary',
      text: `# Checkpoint\n## Key Decisions\n- Themes are JSON files\n## Files\n${files}`,
      sections: [
        { heading: 'Checkpoint', text: '' },
        { heading: 'Key Decisions', text: '- Themes are JSON files', path: ['Checkpoint'] },
        // The reader's split, not the markdown's: what it says is what the extractor reads.
        { heading: 'Files', text: files },
      ],
    };
    expect(recordSections(record).sections.map((s) => s.path)).toEqual([
      undefined,
      ['Checkpoint'],
      undefined,
    ]);
  });

  it('reads none off an indented comment in a code block when it falls back to the markdown', () => {
    const record: ChunkRecord = {
      role: 'summary',
      text,
      sections: [
        { heading: 'Primary Request and Intent', text: 'Ship the theme loader' },
        { heading: 'Key Technical Concepts', text: text.split('\n').slice(3, 7).join('\n') },
        { heading: 'Files and Code Sections', text: files },
      ],
    };
    const { sections } = recordSections(record);
    expect(sections.map((s) => s.path)).toEqual([[], [], []]);
    // Under the comment read as a heading, the file list would have been "fixes".
    expect(sectionSignals(sections).signals.filter((s) => s.family === 'cause')).toEqual([]);
  });
});

describe('a summary section of the patterns a session established', () => {
  it('lists conventions: each item is a decision signal', () => {
    const items = [
      '- Read the source files before trusting the docs',
      '- Run `npm run lint` after every change',
      '- Add breaking changes to CHANGELOG.md under [Unreleased]',
    ].join('\n');
    const { signals } = sectionSignals([{ heading: 'Key Patterns Established', text: items }]);
    expect(signals.map((s) => [s.family, s.text])).toEqual([
      ['decision', 'Read the source files before trusting the docs'],
      ['decision', 'Run `npm run lint` after every change'],
      ['decision', 'Add breaking changes to CHANGELOG.md under [Unreleased]'],
    ]);
  });

  it('is only a section of established patterns: searched, found or used patterns are no choices', () => {
    const items = [
      '- grep for `onSave` across packages/',
      '- the plugin loader reads `hooks.json` twice',
    ].join('\n');
    for (const heading of ['Search Patterns Tried', 'Anti-patterns Found', 'Usage Patterns'])
      expect(
        sectionSignals([{ heading, text: items }]).signals.filter((s) => s.family === 'decision'),
      ).toEqual([]);
  });
});
