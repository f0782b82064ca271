import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import {
  addsTests,
  asksLeave,
  cutFromCode,
  editMishap,
  editsDocumentation,
  followsPrecedent,
  judgesDocument,
  namesTopic,
  offersOption,
  plansStep,
  pointsAway,
  reportsStatus,
} from './not-findings.js';
import { routeLine } from './route.js';

/*
 * Lines a decisions or bugs question does not ask for, whatever their cue words: an edit of the
 * docs, an option put on the table, a step of the agent's plan; and a chunk whose only new line
 * is one the memory already says under another label. Each opened the gate for a chunk that
 * decided and fixed nothing (pi-mono-compact and the demo: "Updated the example to use
 * resolveApiKey instead of …", "Clarified it has no timeout", "The alternative is accepting …",
 * "Commit: Allow startup without API keys, fixes #288" after the changelog line saying it). The
 * texts below are written for these specs, not taken from the fixtures.
 */
const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';

const agent = (text: string): ChunkRecord => ({ role: 'assistant', text });

async function answer(question: string, records: ChunkRecord[], memory = '', budget = 400) {
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question,
    memory,
    chunk: { text: records.map((r) => r.text).join('\n'), records },
    memoryBudget: budget,
  });
  return parseGateAnswer(reply.text);
}

describe('editsDocumentation', () => {
  it.each([
    'Clarified that retries are capped at three in the CLI guide',
    'Error handling: Fixed the incorrect claim about webhook timeouts',
    'Updated the example to use createClient instead of the raw constructor',
    'Commit: Update quick-start example to use the new flag',
    'Cleaned up documentation: config.md lists every key',
    'Reworded the section on caching so it names the eviction policy',
    'A diagram of the queue states was added to `docs/queue.md`',
    'The "Troubleshooting" block in `docs/setup.md` was removed, pointing to the FAQ instead',
    'Changes to deploy.md: Added a table of the regions and their endpoints',
    'Cleaned up docs: `api.md` (added missing status codes), `faq.md` (fixed broken links)',
    'Queue diagrams: Introduced a legend for the state abbreviations (new, run, done, err)',
    'Added a sequence diagram of the login handshake',
    'Drew a figure of the retry flow with its back-off steps',
    'Retry Flow Visuals: Corrected the step numbering and arrow alignments for accuracy.',
    'Queue diagrams: Fixed the arrow labels between the states',
    'Corrected "dropped on restart" to "not replayed" for clarity.',
    'Renamed the "Setup" heading to "Install" for readability',
    'Queue Visuals: Refinements: Corrected the arrow labels and box alignments',
    'Decision: Detailed diagrams were created and refined in `docs/queue.md` to illustrate:',
    'Retry Helper: Docstring Enhancement: The docstring for `retry` in `net.ts` was improved to list its errors',
    "The README's install section was rewritten for the new flags",
    'Retry Example Update: Renamed Example: The `basic-retry.ts` example was renamed to `retry.ts` to match its purpose.',
    // Still edits of the docs after the stop-33 narrowing.
    'Added a footnote to the install guide about proxies',
    'Renamed the "Retries" section to "Backoff" for clarity',
    'Queue diagrams: Tweaked the box spacing and the arrow colours',
  ])('is an edit of the docs: %s', (line) => {
    expect(editsDocumentation(line)).toBe(true);
  });

  it.each([
    // A bug in code that reads or renders documents.
    'Fixed the comment parser crashing on nested blocks',
    'Updated the README renderer to escape raw HTML',
    'Fixed the crash when the README is missing',
    'Fixed the example server binding to port 80 on startup',
    // A typo in a config key is a bug.
    'Fixed a typo in the config key that made the loader ignore retries',
    // A decision that mentions docs, and a design stated without an edit of them.
    'Added a note that the cache size is configurable via settings.json',
    'Improved system prompt documentation section with pointers to the skills docs',
    'Moved config loading to `src/config.md.ts` so tests can stub it',
    'Root cause: documented behaviour of the API differed from the server',
    // "Clarify" as a request is not an edit that was made.
    'Clarify with the user whether retries should be capped',
    // A document named as the subject of a fact about the system.
    'plugins.md: Plugins are folders with only plugin.json required',
    // A bug stated beside the edit: its symptom with a cause or fix, or after a label.
    'Fixed the README example that crashed with a TypeError on startup because the import path was wrong.',
    'Clarified the retry logic in sync.ts so it no longer double-counts failures; the root cause was a shared counter.',
    'Fix example: npm test crashed when the fixture dir was missing, fixed by creating it in setup.',
    'Fix build docs: vitest config was broken',
    // Code under a docs folder is code.
    'Removed the dead branch from src/docs/render.ts which caused the crash.',
    'Removed the migration from docs/migrations/0029.sql because it broke SQLite',
    'The bug in docs/build.sh was removed by quoting $PATH',
    // "Clarified" code, not a statement of the docs.
    'Clarified the retry logic in the uploader',
    // A legend or caption of the product's own screens is a feature.
    'Added a legend to the usage chart so users can tell the plans apart',
    'Introduced a caption under each thumbnail component',
    // A drawing of the product's own screens is a feature; a label naming no drawing is the system's.
    'Usage chart visuals: Fixed the bar alignment on narrow terminals',
    'Retry flow: Corrected the step numbering so backoff starts at one',
    // A purpose other than the reader's is the system's.
    'Renamed the cache key for consistency with the store',
    // A file created in a folder of code, and a passive edit of code, are the system's.
    'Created the retry queue in src/queue.ts so jobs survive a restart',
    'The parser for docstrings was rewritten to stream its input',
    'The retry helper was renamed to backoff because it no longer retries itself',
    // The stop-33 reviewer's lines, and ours in their spirit: a part word that is not the head
    // of its phrase ("a diagram renderer", "a legend field"), clarity of the system rather than
    // of a text, a clause of its own after the edit, a .txt file, an edit of the system under a
    // drawing's label.
    'Added a diagram renderer to the CLI instead of shelling out to mermaid-cli because the npm package pulls in Chromium.',
    'Added a legend field to the status enum instead of hard-coded labels, because the API must return human-readable labels.',
    'Added a figure cache to the exporter so repeated exports skip the layout pass',
    'Changed the default port from 3000 to 8080 instead of keeping 3000, for clarity with the other services behind the proxy.',
    'Renamed the env var to MEM_ROOT for clarity',
    'Renamed `fetchAll` to `listAll` for clarity',
    'The README was updated: we dropped Node 18 instead of polyfilling fetch, because it is end of life.',
    'The changelog was updated; we now reject empty tokens at the API edge',
    'Created a migration plan in docs/plan.md: we move to Postgres because SQLite locks under concurrent writers',
    'Refined the retry policy in config.txt to 3 attempts',
    'Retry diagrams: Improved the backoff so it caps at 30 s',
    'Queue diagrams: Updated the scheduler to run every five minutes',
    // A part added to the system, not to a document.
    'Added a legend to the status enum so the API returns human labels',
    'Added captions to the video player because accessibility law requires them',
    'Introduced figures to the pricing model so enterprise tiers are priced per seat',
  ])('is not an edit of the docs: %s', (line) => {
    expect(editsDocumentation(line)).toBe(false);
  });

  it("lets the reviewer's decisions through the decisions gate", async () => {
    for (const line of [
      'Added a diagram renderer to the CLI instead of shelling out to mermaid-cli because the npm package pulls in Chromium.',
      'The README was updated: we dropped Node 18 instead of polyfilling fetch, because it is end of life.',
      'Changed the default port from 3000 to 8080 instead of keeping 3000, for clarity with the other services behind the proxy.',
    ]) {
      const result = await answer(DECISIONS, [agent(line)]);
      expect(result.update).toBe(true);
      expect(result.memory).toContain(line.slice(0, 40));
    }
  });

  it('stays linear on long text (bounded patterns)', () => {
    const long = `Fixed ${'the a '.repeat(8_000)}docs/${'a/'.repeat(8_000)}x`;
    const started = performance.now();
    editsDocumentation(long);
    editsDocumentation(`added ${'in docs/a '.repeat(6_000)}`);
    editsDocumentation(`added in ${'docs/a/'.repeat(5_000)}x.ts`);
    editsDocumentation(`in ${'docs/a/'.repeat(5_000)}x.ts was removed`);
    editsDocumentation(`${'a '.repeat(8_000)}visuals: corrected ${'a '.repeat(8_000)}`);
    editsDocumentation(`corrected ${'a '.repeat(8_000)} for clarity`);
    editsDocumentation(`the docs ${'a '.repeat(8_000)} was improved`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('offersOption', () => {
  it.each([
    'The alternative is accepting that settings only affect the HTTP transport',
    'Another option would be a per-request cache keyed by tenant',
    'Alternatively, we could keep the queue in memory and flush on exit',
    'Or we accept the slight inconsistency between the two views.',
  ])('offers an option: %s', (line) => {
    expect(offersOption(line)).toBe(true);
  });

  it.each([
    'The alternative is rejected: it needs a Redis server in every install',
    'The chosen option is SQLite, because the store must be embedded',
    'We rejected the alternative of a shared cache because it leaks tenants',
    'Order of migrations is fixed by their timestamp',
    'Use Postgres rather than MySQL for the JSON operators',
    // An option said to be the one taken, on any opening.
    'Alternatively, we went with PGlite over Postgres because it embeds and needs no server.',
    'Alternatively we chose SQLite over Postgres because it needs no daemon.',
    'Or we just keep the JSONL log as the source of truth, which is what we decided.',
    'The other option is better, so we switched to esbuild.',
  ])('is no option offered: %s', (line) => {
    expect(offersOption(line)).toBe(false);
  });
});

describe('plansStep', () => {
  it.each([
    'Add `retries?: number` to the `ClientOptions` interface',
    '2. Add getter/setter methods to `SettingsStore` for tokens',
    'In `client.ts`, modify `defaultFetch()` to read the proxy first',
    'Replace `moment` with `date-fns` in the scheduler',
  ])('is a plan step: %s', (line) => {
    expect(plansStep(line)).toBe(true);
  });

  it.each([
    'Added `retries?: number` to the `ClientOptions` interface',
    'Add breaking changes to CHANGELOG.md under Unreleased',
    'Use `date-fns` rather than `moment`: it tree-shakes',
    'The scheduler now passes `signal` to every job',
  ])('is no plan step: %s', (line) => {
    expect(plansStep(line)).toBe(false);
  });
});

describe('the gate stays shut for lines of the kind not asked', () => {
  it('a chunk whose only decision-like line edits the docs updates nothing; a chunk that decides does', async () => {
    const docs = await answer(DECISIONS, [
      agent(
        'Updated the example to use createClient instead of the raw constructor, so the snippet compiles again.',
      ),
    ]);
    expect(docs.update).toBe(false);
    const decided = await answer(DECISIONS, [
      agent(
        'We decided to build the client with createClient rather than the raw constructor, because the constructor opens a socket per call.',
      ),
    ]);
    expect(decided.update).toBe(true);
  });

  it('a chunk whose only bug-like lines clarify the docs updates nothing', async () => {
    const clarified = await answer(BUGS, [
      agent(
        'Summary of changes:\n\n- **Webhooks**: Clarified that a handler error is retried three times\n- **Error handling**: Fixed the incorrect claim about webhook timeouts - only errors block, not timeouts',
      ),
    ]);
    expect(clarified.update).toBe(false);
  });

  it('an option put on the table is no decision', async () => {
    const offered = await answer(DECISIONS, [
      agent(
        'The alternative is accepting that settings only affect the HTTP transport, not model discovery.',
      ),
    ]);
    expect(offered.update).toBe(false);
  });

  it("the agent's plan steps under an approach heading are no decisions; the reason it gives is", async () => {
    const plan = await answer(DECISIONS, [
      agent(
        'Here is my suggestion:\n\n**Clean approach:**\n\n1. Add `tokens?: Record<string, string>` to the `Settings` interface\n2. Add getter/setter methods to `SettingsStore` for tokens\n3. In `client.ts`, modify `defaultAuth()` to read settings first, then fall back to the environment\n\nThis keeps the `core` package unchanged (it does not need to know about CLI settings) and puts the settings lookup in the CLI layer where it belongs.',
      ),
    ]);
    expect(plan.update).toBe(true);
    expect(plan.memory).not.toMatch(/Add `tokens|Add getter|modify `defaultAuth/);
    expect(plan.memory).toContain('keeps the `core` package unchanged');
  });

  it('a fix word inside quotes is words to post, not a fix; outside them it is', () => {
    expect(
      routeLine(
        'alright, small changes done. commit and push, comment with "Thanks for reporting, fixed in the next release"',
      ),
    ).not.toBe('cause');
    expect(routeLine('Fixed the "undefined is not a function" error in the upload handler')).toBe(
      'cause',
    );
    expect(routeLine('The root cause was a stale "dist" folder')).toBe('cause');
  });

  it('a commit saying what a remembered line says, under its label, updates nothing', async () => {
    const memory =
      '- Allow startup without API keys: interactive mode no longer throws when no keys are configured; users can run /login (#288)';
    const commit = await answer(
      BUGS,
      [
        {
          role: 'tool_call',
          text: 'bash {"command":"git commit -m \\"Allow startup without API keys, fixes #288\\""}',
        },
      ],
      memory,
    );
    expect(commit.update).toBe(false);
    // A commit that says something new still updates.
    const other = await answer(
      BUGS,
      [
        {
          role: 'tool_call',
          text: 'bash {"command":"git commit -m \\"Fix crash when the config file is empty, fixes #301\\""}',
        },
      ],
      memory,
    );
    expect(other.update).toBe(true);
  });

  it('a commit fixing what a remembered open line asks is new: the open line does not say the fix', async () => {
    const commit = await answer(
      BUGS,
      [
        {
          role: 'tool_call',
          text: 'bash {"command":"git commit -m \\"Fix sync loop hang on server restart\\""}',
        },
      ],
      '- Open: the sync loop hangs when the server restarts',
    );
    expect(commit.update).toBe(true);
  });
});

describe('a fold that only loses lines', () => {
  it('is no update: a long line that sheds an older one and then itself leaves the memory as it was', async () => {
    const memory =
      '- The upload failed behind the proxy.\n- The root cause was a stale lockfile; fixed by deleting it and reinstalling the dependencies.';
    const shed = await answer(
      BUGS,
      [
        agent(
          'The export crashed because the temp directory was missing on the build agents, which only showed up on the nightly runs under heavy load when several jobs shared one machine.',
        ),
      ],
      memory,
      30,
    );
    expect(shed.update).toBe(false);
    // With room for it, the same line is an update that keeps both remembered lines.
    const kept = await answer(
      BUGS,
      [
        agent(
          'The export crashed because the temp directory was missing on the build agents, which only showed up on the nightly runs under heavy load when several jobs shared one machine.',
        ),
      ],
      memory,
      400,
    );
    expect(kept.update).toBe(true);
    expect(kept.memory).toContain('The upload failed behind the proxy.');
    expect(kept.memory).toContain('temp directory was missing');
  });
});

describe('judgesDocument', () => {
  it.each([
    'Current README philosophy is verbose. The website version is shorter',
    'README.md has duplicate "Install" sections',
    'The docs are outdated since the v2 API',
  ])('judges a document: %s', (line) => {
    expect(judgesDocument(line)).toBe(true);
  });

  it.each([
    'Docs are generated from the TypeScript types by typedoc, never edited by hand',
    'The README install step runs npm ci',
    'The config parser is verbose about unknown keys',
  ])('does not: %s', (line) => {
    expect(judgesDocument(line)).toBe(false);
  });
});

describe('cutFromCode, pointsAway, editMishap', () => {
  it('a line holding a code fence is a piece of a code block; inline code is not', () => {
    expect(cutFromCode('mode: "a" | "b"The docs have:```typescript')).toBe(true);
    expect(cutFromCode('```ts')).toBe(true);
    expect(cutFromCode('The store uses `better-sqlite3` for synchronous reads')).toBe(false);
    // A fence named in prose, apart from any text, is a word of the sentence.
    expect(
      cutFromCode(
        'Decision: we wrap the config in ``` fences in the generated prompt because models parse it more reliably.',
      ),
    ).toBe(false);
  });

  it.each([
    'Now it just uses the theme system instead of chalk for all styling.',
    'This now takes a callback instead of a colour object',
    'They also use the shared pool',
  ])('a pronoun subject points at what the note cannot show: %s', (line) => {
    expect(pointsAway(line)).toBe(true);
  });

  it.each([
    'The renderer now uses the theme system instead of chalk',
    'Items are kept in insertion order; this keeps diffs stable',
    'It is important that the lock is taken before the read',
    // A pronoun subject whose sentence states a cause explains a bug or gives a reason.
    'This returns undefined when the cache is cold, which caused the crash in the sync loop.',
    'It uses the theme system instead of chalk because chalk broke under NO_COLOR.',
  ])('a named subject, or a cause stated, does not: %s', (line) => {
    expect(pointsAway(line)).toBe(false);
  });

  it.each([
    "The sed command didn't work because of the multiline format.",
    "Now the issue is that the sed didn't work properly for all instances.",
    'The replacement did not match the indented copies',
  ])("the agent's own edit misfiring: %s", (line) => {
    expect(editMishap(line)).toBe(true);
  });

  it.each([
    'The sed script in the release job fails on macOS because BSD sed needs -i ""',
    "The edit didn't persist because the store flushes asynchronously",
    "The importer didn't work with CRLF files",
    // The misfire's consequence in the project is a bug.
    'The search-and-replace missed a call site, so the old API is still used in auth.ts and login crashes.',
    'The replacement did not match every instance because the regex in parse.ts is greedy, which is the bug.',
  ])('a bug of the project: %s', (line) => {
    expect(editMishap(line)).toBe(false);
  });
});

describe('asksLeave', () => {
  it.each([
    'Here is the plan: keep the cache per tenant.\n\nWant me to implement this?',
    'I would move the parser into its own package. Shall I proceed?',
    'The cleanest approach is a wrapper in the client. Do you want me to go ahead and implement it?',
  ])('a proposal asking leave: %s', (message) => {
    expect(asksLeave(message)).toBe(true);
  });

  it.each([
    'Done. The cache is now per tenant. Want me to add tests too?',
    'I moved the parser into its own package because the CLI must not load it.',
    'Should I use Postgres or SQLite for the store?',
  ])('no proposal asking leave: %s', (message) => {
    expect(asksLeave(message)).toBe(false);
  });
});

describe('lines of no kind asked, at the gate', () => {
  it('a proposal that asks leave decides nothing; the same text reported as done does', async () => {
    const proposal = await answer(DECISIONS, [
      agent(
        'Here is my suggestion:\n\nWe decided to keep the `core` package unchanged rather than teach it about CLI settings, because the settings lookup belongs in the CLI layer.\n\nWant me to implement this?',
      ),
    ]);
    expect(proposal.update).toBe(false);
    const done = await answer(DECISIONS, [
      agent(
        'We decided to keep the `core` package unchanged rather than teach it about CLI settings, because the settings lookup belongs in the CLI layer.\n\nWant me to add tests too?',
      ),
    ]);
    expect(done.update).toBe(true);
  });

  it("the agent's sed misfiring is no bug, and stays a tool failure", async () => {
    const misfire = [agent("The sed command didn't work because of the multiline format.")];
    expect((await answer(BUGS, misfire)).update).toBe(false);
    const TOOLS =
      'Which tool calls or commands failed, with what error, and what was the working form?';
    expect((await answer(TOOLS, misfire)).update).toBe(true);
  });

  it('a list of tests added, or an item reporting only "Done", is no bug nor decision', async () => {
    const report = (item: string) => [
      agent(`## Summary: Fixed the TruncatedText component\n\n### Fixes Applied\n\n${item}`),
    ];
    for (const question of [BUGS, DECISIONS]) {
      expect(
        (
          await answer(
            question,
            report(
              '1. **Added comprehensive tests** in `truncated-text.test.ts`:\n   - Width padding verification\n   - ANSI code preservation\n   - Edge cases (empty text, exact fit)',
            ),
          )
        ).update,
      ).toBe(false);
      expect(
        (
          await answer(
            question,
            report(
              "1. **System prompt update** - Done, but it's quite terse. The mapping is clear.",
            ),
          )
        ).update,
      ).toBe(false);
    }
    // An item that goes on, after "done", to state a bug reports it.
    const failedRows = await answer(
      BUGS,
      report('1. Backfill: done, but 312 rows failed with a unique-constraint violation on email'),
    );
    expect(failedRows.update).toBe(true);
    expect(failedRows.memory).toContain('unique-constraint violation');
    const parser = await answer(
      BUGS,
      report(
        '2. Parser fix: completed. The parser now rejects trailing commas because JSON5 input broke the config loader',
      ),
    );
    expect(parser.update).toBe(true);
    expect(parser.memory).toContain('JSON5 input broke the config loader');
    // A test added for a symptom it names is the bug's fix, reported.
    const regression = await answer(
      BUGS,
      report(
        '1. **Added a regression test** in `parser.test.ts` for the crash on empty input, fixed by returning an empty list',
      ),
    );
    expect(regression.update).toBe(true);
  });

  it('a line judging the README is no decision', async () => {
    const verdict = [
      agent(
        'Current README philosophy is verbose: each point is a long paragraph instead of one line with a link.',
      ),
    ];
    expect((await answer(DECISIONS, verdict)).update).toBe(false);
  });

  it('a piece of a code block is no decision', async () => {
    const piece = await answer(DECISIONS, [
      agent(
        'The hook payload now carries `reason` instead of `type`, because clients switch on it:```typescript',
      ),
    ]);
    expect(piece.update).toBe(false);
  });

  it('an option said to be taken, a doc edit stating a bug, a pronoun explaining a crash, a misfire that broke the project: updates', async () => {
    const TOOLS =
      'Which tool calls or commands failed, with what error, and what was the working form?';
    const cases: [string, string][] = [
      [
        DECISIONS,
        'Alternatively, we went with PGlite over Postgres because it embeds and needs no server.',
      ],
      [
        DECISIONS,
        'Decision: we wrap the config in ``` fences in the generated prompt because models parse it more reliably.',
      ],
      [
        BUGS,
        'This returns undefined when the cache is cold, which caused the crash in the sync loop.',
      ],
      [
        BUGS,
        'Fixed the README example that crashed with a TypeError on startup because the import path was wrong.',
      ],
      [BUGS, 'Removed the dead branch from src/docs/render.ts which caused the crash.'],
      [
        TOOLS,
        'Fix example: npm test crashed when the fixture dir was missing, fixed by creating it in setup.',
      ],
      [
        BUGS,
        'The search-and-replace missed a call site, so the old API is still used in auth.ts and login crashes.',
      ],
    ];
    for (const [question, line] of cases)
      expect((await answer(question, [agent(line)])).update, line).toBe(true);
    const user = await answer(DECISIONS, [
      {
        role: 'user',
        text: 'Alternatively we chose SQLite over Postgres because it needs no daemon.',
      },
    ]);
    expect(user.update).toBe(true);
  });

  it('a pronoun subject is no decision', async () => {
    const pieces = await answer(DECISIONS, [
      agent('Now it just uses the theme system instead of chalk for all styling.'),
    ]);
    expect(pieces.update).toBe(false);
  });
});

describe('addsTests and reportsStatus', () => {
  it.each([
    'Added comprehensive tests: in `truncated-text.test.ts`: Width padding verification; Newline handling',
    'Wrote unit tests for the session parser',
    'Added tests covering the retry path',
    '**Added comprehensive tests** in `truncated-text.test.ts`:',
    'Added e2e specs for the checkout flow',
    'Extended test coverage for the importer',
  ])('a list of tests added: %s', (line) => {
    expect(addsTests(line)).toBe(true);
  });

  it.each([
    'Added test fixtures under test/fixtures as the one source of sample data',
    'Tests run against a real Postgres instead of mocks because mocks hid a migration bug',
    'Added a regression test for the crash on empty input',
    'Added tests because the parser was wrong on CRLF input',
    'Added testing hooks to the plugin API so plugins can stub the clock',
    'Wrote the spec for the plugin API: plugins get a read-only view of the store, never the writer',
    'Added tests for the race between refresh and logout; the refresh now holds the session lock',
    'Added e2e tests to the required checks so main stays green',
    'Created specs under docs/specs/ for each endpoint; the API is the source of truth, not the UI',
    'Created a spec for the sync protocol: the server owns ordering, clients only append',
    'Added coverage gates to CI — a PR under 80 % is blocked',
  ])(
    'tests as a thing built, a choice, a design spec, or a test with a clause of its own: %s',
    (line) => {
      expect(addsTests(line)).toBe(false);
    },
  );

  it.each([
    "System prompt update: - Done, but it's quite terse. The mapping is clear though.",
    'Migration script: completed.',
    'Theme docs: Done',
    'Release notes: finished. Reviewed by Sam.',
  ])('an item reporting only that it is done: %s', (line) => {
    expect(reportsStatus(line)).toBe(true);
  });

  it.each([
    'Done callback fires twice: the handler runs on both resolve and reject',
    'Cleanup: done() is never called when the stream errors',
    'Export: completed jobs are never removed from the queue',
    'Status: the done flag is set before the write finishes',
    'Parser fix: completed. The parser now rejects trailing commas because JSON5 input broke the config loader',
    'CI: finished; the flaky auth test still fails 1 in 5 runs with a timeout in the token refresh',
    'Backfill: done, but 312 rows failed with a unique-constraint violation on email',
    'Phase 2: done. We keep SQLite for the cache because Postgres would add a server to every install',
    'Step 3 (rename the flag): Done. The old --legacy flag is kept as an alias because scripts in ops/ still pass it',
    'Migration: completed, but the users table still has 3 rows with NULL emails and the NOT NULL constraint was not added',
  ])('a label starting with the word, a call, or a body that says more: %s', (line) => {
    expect(reportsStatus(line)).toBe(false);
  });
});

describe('namesTopic', () => {
  it.each([
    'When to use queues vs alternatives (cron jobs, webhooks, polling)',
    'When to use a hook vs alternatives (AGENTS.md, slash commands, custom tools)',
    'How to configure the proxy for the test runner',
    'What to log instead of the raw request body',
  ])('a topic named as a heading names it: %s', (line) => {
    expect(namesTopic(line)).toBe(true);
  });

  it.each([
    'How to deploy: we push tags and CI builds the image instead of building by hand',
    'When to retry is decided by the client, not the server.',
    'When to retry is decided by the client instead of the server',
    'We decided when to flush: after every batch rather than on a timer',
    // The stop-33 reviewer's line, and ours: an aside that gives a reason.
    'Why to prefer SQLite over Postgres instead of a hosted DB (no server needed on every install)',
    'Which to pick over cron (cron jobs do not survive restarts)',
    'When to shard rather than partition (partitions never span two disks)',
    'Why to prefer SQLite over Postgres for local installs (no server needed)',
    'When to use Redis vs SQLite for the cache — SQLite, since no server',
  ])('a statement about the topic: %s', (line) => {
    expect(namesTopic(line)).toBe(false);
  });

  it('shuts the decisions gate for a chunk whose only cue is the topic\'s "alternatives"', async () => {
    const records = [
      agent(
        [
          'Done so far:',
          '1. Updated the proxy section of the guide',
          '2. Rewrote queues.md with:',
          '   - When to use queues vs alternatives (cron jobs, webhooks, polling)',
          '   - Queue layout (one folder per topic)',
        ].join('\n'),
      ),
    ];
    expect((await answer(DECISIONS, records)).update).toBe(false);
    // The same chunk that states a choice still opens it.
    const chosen = [
      agent('We chose a queue instead of cron jobs because retries must survive restarts.'),
    ];
    expect((await answer(DECISIONS, chosen)).update).toBe(true);
  });
});

describe('followsPrecedent', () => {
  it.each([
    "I've refactored `invoice-form.tsx` to match the patterns from the other form components.",
    'The dialog now follows the exact same patterns as `confirm-dialog.ts` and `prompt-dialog.ts`.',
    'Let me rewrite it to follow the conventions of the existing handlers:',
  ])("code brought in line with the project's own pattern: %s", (message) => {
    expect(followsPrecedent(message)).toBe(true);
  });

  it.each([
    'We restructured the store to follow the event-sourcing pattern instead of CRUD tables.',
    'Ported the parser to Rust to match the latency budget of the other services.',
    'The form matches the design mock now.',
  ])('a design adopted, or no pattern of the code at hand: %s', (message) => {
    expect(followsPrecedent(message)).toBe(false);
  });

  it("shuts the decisions gate for a port whose choices repeat the other files'", async () => {
    const port = [
      agent(
        'The `invoice-form.tsx` file has an old hand-written layout with inline styles instead of the form components. Let me port it to match the patterns from the other forms:',
      ),
      agent(
        [
          "I've ported `invoice-form.tsx` to match the patterns from the other form files. Here's what changed:",
          '',
          '1. Removed the inline styles',
          '2. Consistent structure:',
          '   - Uses `Field` and `Row` components instead of raw divs',
        ].join('\n'),
      ),
    ];
    expect((await answer(DECISIONS, port)).update).toBe(false);
    // The same choices stated as the team's own still open it.
    const chosen = [
      agent(
        'The forms use `Field` and `Row` components instead of raw divs, so every form shares one layout.',
      ),
    ];
    expect((await answer(DECISIONS, chosen)).update).toBe(true);
  });
  // The stop-33 reviewer's messages, and ours in their spirit: the precedent covers the sentence
  // or item that says it and the list it introduces, not the decisions beside it.
  it.each([
    [
      'I refactored the auth module to follow the conventions of the existing handlers. We chose JWT instead of server sessions because sessions did not scale across the three regions.',
      'We chose JWT instead of server sessions',
    ],
    [
      'Summary of changes:\n- Ported `billing.ts` to match the patterns from the other service files\n- Chose Stripe webhooks instead of polling because polling hit the rate limit',
      'Chose Stripe webhooks instead of polling',
    ],
    [
      'Refactored the auth module to follow the pattern of the other services, and switched to JWT because sessions did not scale.',
      'switched to JWT because sessions did not scale',
    ],
    [
      'Rewrote the cache to match the patterns from `store.ts`. We chose LRU over LFU because hits are recent-biased.',
      'We chose LRU over LFU',
    ],
    [
      'Updated the loader to follow the same structure as the existing files:\n- Reads each file once\n\nSeparately, we switched the queue to Redis streams instead of polling Postgres because polling added 2 s of lag.',
      'we switched the queue to Redis streams',
    ],
  ])('keeps a decision beside a precedent: %s', async (message, decision) => {
    const result = await answer(DECISIONS, [agent(message)]);
    expect(result.update).toBe(true);
    expect(result.memory).toContain(decision);
    expect(result.memory).not.toMatch(/to (?:match|follow) the (?:patterns|conventions|same)/u);
  });
});

describe('a report item that says more than "done", and a choice with its reason', () => {
  // The stop-32 reviewer's lines, each under a heading that names no kind of finding.
  it('reads the bug after "done, but" under "## Summary" as a bug', async () => {
    const report = [
      agent(
        '## Summary\n\n- Schema migration: done\n- Backfill: done, but 312 rows failed with a unique-constraint violation on email',
      ),
    ];
    const bugs = await answer(BUGS, report);
    expect(bugs.update).toBe(true);
    expect(bugs.memory).toContain('312 rows failed with a unique-constraint violation');
    expect(bugs.memory).not.toContain('Schema migration');
    expect((await answer(DECISIONS, report)).update).toBe(false);
  });

  it('reads the choice after "done." under "## Status" as a decision', async () => {
    const report = [
      agent(
        '## Status\n\n- Phase 1: done\n- Phase 2: done. We keep SQLite for the cache because Postgres would add a server to every install',
      ),
    ];
    const decisions = await answer(DECISIONS, report);
    expect(decisions.update).toBe(true);
    expect(decisions.memory).toContain('We keep SQLite for the cache because Postgres');
    expect((await answer(BUGS, report)).update).toBe(false);
  });

  it('reads one tool replaced by another, with its reason, as a decision', async () => {
    const replaced = [
      agent(
        'Replaced `jest --coverage` with vitest because jest failed with "SyntaxError: Cannot use import statement outside a module"',
      ),
    ];
    const decisions = await answer(DECISIONS, replaced);
    expect(decisions.update).toBe(true);
    expect(decisions.memory).toContain('Replaced `jest --coverage` with vitest');
  });

  it('a status alone, a step or a proposal with a reason stays out', async () => {
    for (const text of [
      '## Status\n\n- Phase 1: done\n- Phase 2: done',
      "I'll replace the fetch wrapper with undici because the wrapper leaks sockets",
      'We could keep SQLite for the cache because it is simple',
    ])
      expect((await answer(DECISIONS, [agent(text)])).update, text).toBe(false);
  });
});
