import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';
import { findingsSignals } from './findings-signals.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';

async function memoryFor(records: ChunkRecord[]): Promise<string[]> {
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question: DECISIONS,
    memory: '',
    chunk: { text: records.map((r) => r.text).join('\n'), records },
    memoryBudget: 300,
  });
  const answer = parseGateAnswer(reply.text);
  return answer.update ? answer.memory.split('\n') : [];
}

// A research reply: how the plugin loader works, under a heading that says these are its notes.
const notes: ChunkRecord = {
  role: 'assistant',
  text: [
    'Based on the loader source, here is how plugins are found:',
    '',
    '```ts',
    'const dirs = [globalDir, projectDir];',
    '```',
    '',
    '### Important Notes',
    '',
    '1. **No `manifest.yaml` support exists** - the loader reads only `plugin.json`',
    '2. Project plugins shadow global plugins of the same name',
    '3. Keep plugin init fast since it runs on every start',
  ].join('\n'),
};

// A lead-in at the end of a chatty line, then a list, then prose that is no finding.
const leadIn: ChunkRecord = {
  role: 'assistant',
  text: [
    'Good - I have enough context now. Key findings:',
    '',
    '- **No official installer** exists for the lint plugins — they are plain dependencies',
    '- The build already pins the compiler version in `.tool-versions`',
    '',
    'Before drafting the plan, I need to clarify two things with you.',
  ].join('\n'),
};

describe("an agent's findings list", () => {
  it('keeps the items under a findings heading or lead-in as decision lines', () => {
    expect(findingsSignals([notes, leadIn]).map((s) => [s.family, s.text])).toEqual([
      ['decision', 'No `manifest.yaml` support exists - the loader reads only `plugin.json`'],
      ['decision', 'Project plugins shadow global plugins of the same name'],
      ['decision', 'Keep plugin init fast since it runs on every start'],
      [
        'decision',
        'No official installer exists for the lint plugins — they are plain dependencies',
      ],
      ['decision', 'The build already pins the compiler version in `.tool-versions`'],
    ]);
  });

  it('reads nothing off a list under another lead-in, or off thinking', () => {
    expect(
      findingsSignals([
        { role: 'assistant', text: 'Next steps:\n- Add the manifest reader\n- Update the docs' },
        { role: 'assistant', text: '[thinking] Key findings:\n- The loader reads plugin.json' },
        { role: 'user', text: 'Key findings:\n- the loader reads only plugin.json files' },
      ]),
    ).toEqual([]);
  });

  it('opens the decisions note with them, though no item has a cue word', async () => {
    const decisions = await memoryFor([notes]);
    expect(decisions.some((l) => l.includes('Project plugins shadow global plugins'))).toBe(true);
    expect(decisions.some((l) => l.includes('manifest.yaml'))).toBe(true);
  });

  it('keeps a list of how things work now under its lead-in, the lead-in naming the subject', () => {
    const now: ChunkRecord = {
      role: 'assistant',
      text: [
        'Done!',
        '',
        '**Disk usage** in the status bar now:',
        '- Normal (0-80%): default color',
        '- Warning (80-95%): yellow',
        '',
        'Now if the config file is deleted while the server runs:',
        '1. The watcher sees a `rename` event and checks that the file is gone',
        '2. The server falls back to the built-in defaults and logs the change once',
        '',
        'Now let me update the tests:',
        '- add a case for the deleted config file and the fallback defaults',
        '',
        'Now:',
        '- `statusColor`: `#8abeb7` (accent) for every level',
      ].join('\n'),
    };
    expect(findingsSignals([now]).map((s) => s.text)).toEqual([
      'Disk usage in the status bar now: Normal (0-80%): default color; Warning (80-95%): yellow',
      'Now if the config file is deleted while the server runs: The watcher sees a `rename` event and checks that the file is gone',
      'Now if the config file is deleted while the server runs: The server falls back to the built-in defaults and logs the change once',
    ]);
  });

  it('leaves out an item the transcript cut off mid-way, and keeps the items before it', () => {
    const cut: ChunkRecord = {
      role: 'assistant',
      text: [
        'Now invalid themes will:',
        '1. **On startup (`initTheme`)**: Log error, fall back to dark theme, continue running',
        '2. **During theme switch (`',
      ].join('\n'),
    };
    expect(findingsSignals([cut]).map((s) => s.text)).toEqual([
      'Now invalid themes will: On startup (`initTheme`): Log error, fall back to dark theme, continue running',
    ]);
  });

  describe('definition items under a heading that names no kind of finding', () => {
    // A research reply listing a job runner's config fields: no cue word anywhere.
    const fields: ChunkRecord = {
      role: 'assistant',
      text: [
        'I read the runner docs and the schema. Here is what a job accepts.',
        '',
        '### Job config fields',
        '',
        '- `retries`: How many times a failed step is run again before the job fails',
        '- **`timeout`** (seconds): The whole job is cancelled once it runs past this',
        '- `env` — variables exported to every step, secrets masked in the log',
        '- `name`: free text',
        '',
        'Steps run in the order they are listed.',
      ].join('\n'),
    };

    it('reads each item that defines a name with four words or more, under its heading', () => {
      expect(findingsSignals([fields]).map((s) => [s.family, s.text])).toEqual([
        [
          'decision',
          'Job config fields: `retries`: How many times a failed step is run again before the job fails',
        ],
        [
          'decision',
          'Job config fields: `timeout` (seconds): The whole job is cancelled once it runs past this',
        ],
        [
          'decision',
          'Job config fields: `env` — variables exported to every step, secrets masked in the log',
        ],
      ]);
    });

    it('opens the decisions note with them', async () => {
      const decisions = await memoryFor([fields]);
      expect(decisions.some((l) => l.includes('`retries`: How many times'))).toBe(true);
    });

    it('reads no lone definition, no lead-in sentence, no code, no thinking and no user text', () => {
      const lone: ChunkRecord = {
        role: 'assistant',
        text: '## Setup\n\n- `make dev`: starts the server and the watcher together\n- Open the browser',
      };
      const leadInSentence: ChunkRecord = {
        role: 'assistant',
        text: 'There are a few ways to do it. Some alternatives:\n- `cron`: runs the job on a fixed schedule every hour\n- `queue`: runs the job whenever an event arrives on the bus',
      };
      const fenced: ChunkRecord = {
        role: 'assistant',
        text: '### Output\n\n```yaml\n- `a`: one two three four five\n- `b`: one two three four five\n```',
      };
      const items =
        '### Flags\n- `--force`: rebuilds every module from scratch\n- `--quiet`: prints nothing but the errors found';
      expect(
        findingsSignals([
          lone,
          leadInSentence,
          fenced,
          { role: 'assistant', text: `[thinking] ${items}` },
          { role: 'user', text: items },
        ]),
      ).toEqual([]);
    });

    it('reads none off a plan that ends asking leave to carry it out', () => {
      const plan: ChunkRecord = {
        role: 'assistant',
        text: [
          'The fix adds two settings.',
          '',
          '**Cache settings:**',
          '- `cacheSize`: how many parsed files the store keeps in memory at once',
          '- `cacheTtl`: how long a parsed file stays cached before it is read again',
          '',
          'Want me to implement this?',
        ].join('\n'),
      };
      expect(findingsSignals([plan])).toEqual([]);
      // The same report, done, is read.
      const done = {
        ...plan,
        text: plan.text.replace('Want me to implement this?', 'All tests pass.'),
      };
      expect(findingsSignals([done]).map((s) => s.text)).toEqual([
        'Cache settings: `cacheSize`: how many parsed files the store keeps in memory at once',
        'Cache settings: `cacheTtl`: how long a parsed file stays cached before it is read again',
      ]);
    });

    // A reviewer's inputs, written outside the fixtures: "`name`: words" lists that are edits,
    // plans, tool output, options put to the user or questions, never definitions.
    const report = (...lines: string[]): ChunkRecord => ({
      role: 'assistant',
      text: lines.join('\n'),
    });
    it.each([
      [
        'a change list keyed by files',
        report(
          '## Summary of Changes',
          '- `src/auth/session.ts`: Added a null check before reading the token',
          '- `src/auth/refresh.ts`: Updated the retry to back off between attempts',
          '',
          'All tests pass.',
        ),
      ],
      [
        'changes keyed by names, under "Changes Made"',
        report(
          '**Changes Made:**',
          '- `thinkingOff`: dimGray instead of darkGray so it reads on dark themes',
          '- `thinkingLow`: blue tint kept but lightened for the light theme',
          '',
          'Done.',
        ),
      ],
      [
        'a test report',
        report(
          '## Test Results',
          '- `auth.test.ts`: 3 failures in the refresh suite, all timeouts',
          '- `session.test.ts`: all 12 tests pass after the change',
          '',
          'The timeouts look flaky.',
        ),
      ],
      [
        'a numbered plan',
        report(
          '## Implementation Plan',
          '1. `src/cache.ts`: add an LRU keyed by the file path',
          '2. `src/index.ts`: wire the cache into the loader on startup',
          '',
          'I will start with the cache.',
        ),
      ],
      [
        'options put to the user',
        report(
          '### Options',
          '- `zod`: runtime validation with static types inferred from the schema',
          '- `valibot`: the same idea with a much smaller bundle size',
          '',
          'Which one would you prefer?',
        ),
      ],
      [
        'next steps',
        report(
          '## Next Steps',
          '- `migrate`: run it against the staging database first, then production',
          '- `backfill`: schedule it for the night when the load is low',
          '',
          'That is all for today.',
        ),
      ],
      [
        'git status',
        report(
          '## Git status',
          '- `main`: two commits ahead of the remote, nothing staged yet',
          '- `feature/cache`: rebased on main with no conflicts left',
          '',
          'Ready to push.',
        ),
      ],
      [
        'files modified',
        report(
          '**Files modified:**',
          '- `package.json`: bumped vitest to the latest minor release',
          '- `README.md`: documented the new cache flag and its default',
          '',
          'Done.',
        ),
      ],
      [
        'linter output',
        report(
          '### ESLint output',
          '- `no-unused-vars`: two hits in the loader, both left from the refactor',
          '- `eqeqeq`: one hit in the parser where null is compared loosely',
          '',
          'I will fix these next.',
        ),
      ],
      [
        'open questions',
        report(
          '## Open questions',
          '- `maxRetries`: should it count the first attempt or only the retries?',
          '- `timeout`: is it per request or for the whole batch of requests?',
          '',
          'Let me know.',
        ),
      ],
      [
        'defects found in a document, under "Issues in …"',
        report(
          '**Issues in config.md:**',
          '- `retryDelay` - not documented anywhere in the config reference',
          '- `maxJobs` - the docs give 8 as its default but the schema says 4',
          '',
          'Let me check the other files.',
        ),
      ],
      [
        'discrepancies found',
        report(
          '### Discrepancies',
          '- `cacheDir`: the README names a folder the code never reads from',
          '- `logLevel`: documented as a number while the loader wants a string',
          '',
          'I will fix both.',
        ),
      ],
      [
        'names added, under a heading that says they are new',
        report(
          '### New Cache Settings',
          '- `cacheDir` - Folder the parsed files are written to',
          '- `cacheTtl` - Seconds a parsed file stays fresh before a reread',
          '',
          'Both are documented in config.md.',
        ),
      ],
      [
        'names added, under a heading that ends "added"',
        report(
          '**Flags added:**',
          '- `--dry-run`: prints the plan without writing any file',
          '- `--verbose`: prints each step of the plan as it runs',
          '',
          'Done.',
        ),
      ],
    ])('reads no definitions off %s', (_, record) => {
      expect(findingsSignals([record])).toEqual([]);
    });

    it('still reads the fields of a part named like a defect ("Issue tracker fields")', () => {
      const fields = report(
        '### Issue tracker fields',
        '- `priority`: how urgent the ticket is, from one to five',
        '- `assignee`: the person who works on the ticket next',
        '',
        'That is all of them.',
      );
      expect(findingsSignals([fields]).map((s) => s.text)).toEqual([
        'Issue tracker fields: `priority`: how urgent the ticket is, from one to five',
        'Issue tracker fields: `assignee`: the person who works on the ticket next',
      ]);
    });

    it('still reads a third-person definition and a property path, and output fields', () => {
      const flags = report(
        '### Output fields',
        '- `init`: creates the vault folder and writes its first index',
        '- `process.env`: the variables the hook reads its settings from',
        '',
        'That is the whole surface.',
      );
      expect(findingsSignals([flags]).map((s) => s.text)).toEqual([
        'Output fields: `init`: creates the vault folder and writes its first index',
        'Output fields: `process.env`: the variables the hook reads its settings from',
      ]);
    });
  });
});
