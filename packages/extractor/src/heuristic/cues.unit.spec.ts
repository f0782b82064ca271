import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { cuesIn, STATED_CAUSING } from './cues.js';
import { routeLine } from './route.js';
import { lineStrength } from '../synthesis/strength.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';

describe('a mismatch the agent notices', () => {
  it('is a strong cause cue: two parts disagreeing is the bug, found', () => {
    for (const sentence of [
      "I notice there's a discrepancy in the types: the shared file uses `status`.",
      'The client and the server schemas are out of sync.',
      "The field names don't match between the form and the store.",
      'There is a version mismatch between the lockfile and package.json.',
    ])
      expect(cuesIn(sentence)).toContainEqual({ family: 'cause', strength: 'strong' });
    expect(cuesIn('The colours match the design.')).toEqual([]);
  });

  it('enters the bugs memory', async () => {
    const records: ChunkRecord[] = [
      {
        role: 'assistant',
        text: "I notice there's a discrepancy in the types. The shared types use `TaskFilter` and the components use `TaskStatus`. Let me check the other folder:",
      },
      { role: 'tool_call', text: 'Read {"file_path":"src/types/index.ts"}' },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: BUGS,
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).memory).toContain('discrepancy in the types');
  });
});

describe('a choice stated with the alternative it passed over', () => {
  it('is a strong decision cue when said as how a part is', () => {
    for (const sentence of [
      'Pi relies on CLI tools invoked via bash rather than MCP.',
      'Footer now uses `"dim"` (#666666) instead of `"muted"` (#808080), making it dimmer.',
      'Updated `getThinkingBorderColor()` to use the dedicated tokens instead of mapping to generic colors',
      // The team's own choice, said with "we" and a verb of how the project is kept.
      "We use `pnpm install` instead of `npm install` because npm install failed with ERESOLVE on the workspace peer deps, and pnpm's strict hoisting avoids it.",
      'We pin Node 20 rather than 22 because the native addon crashed on 22',
    ])
      expect(cuesIn(sentence)).toContainEqual({ family: 'decision', strength: 'strong' });
  });

  it('stays weak when the speaker narrates, hedges or proposes', () => {
    for (const sentence of [
      "I'll read the file rather than guess its layout.",
      'If VS Code has a light background, it might be loading the `light` theme instead of `dark`.',
      'The theme loader should catch this error gracefully instead of crashing.',
      'We have two options: wrap the heading in `toolText` instead of just bold.',
      'We can read the config file instead of guessing its keys.',
      'We need to rerun the build rather than patch the output.',
      'We read the lockfile instead of the manifest to find the version.',
    ])
      expect(cuesIn(sentence)).toContainEqual({ family: 'decision', strength: 'weak' });
  });
});

describe('a cause stated as what was causing the symptom', () => {
  it('is a strong cause cue, and the line is a bug', () => {
    for (const sentence of [
      'The stray print statements were causing the garbled output in the status bar.',
      'The retry wrapper is what was causing the duplicate uploads.',
      'A stale lockfile caused the version drift on CI.',
    ]) {
      expect(cuesIn(sentence)).toContainEqual({ family: 'cause', strength: 'strong' });
      expect(routeLine(sentence)).toBe('cause');
    }
    // "causing" with nothing said to be doing it is no cause stated.
    expect(cuesIn('Avoid causing extra renders.')).not.toContainEqual({
      family: 'cause',
      strength: 'strong',
    });
  });

  it('is no cause stated in a question, in doubt or denied', () => {
    for (const sentence of [
      'I am not sure yet what is causing the hang in the upload handler.',
      'The cache was not causing the slowdown in the dashboard; the query plan was.',
      'What is causing this crash?',
      'Is this causing the failure?',
    ])
      expect(cuesIn(sentence)).not.toContainEqual({ family: 'cause', strength: 'strong' });
    // The router reads the same alternation: a denied cause is no bug's resolution.
    expect(
      routeLine('The cache was not causing the slowdown in the dashboard; the query plan was.'),
    ).not.toBe('cause');
  });

  it('reads doubt and a question mark only in the clause around it', () => {
    for (const sentence of [
      'After checking if the cache was warm, I found the stale index was causing the misses.',
      'The retry wrapper was causing the duplicate rows; is that ok?',
    ])
      expect(cuesIn(sentence)).toContainEqual({ family: 'cause', strength: 'strong' });
    expect(
      routeLine(
        'After checking if the cache was warm, I found the stale index was causing the misses.',
      ),
    ).toBe('cause');
    expect(cuesIn('We wonder whether the cache is causing it.')).not.toContainEqual({
      family: 'cause',
      strength: 'strong',
    });
  });

  it('looks behind and ahead through bounded windows only, so a long text is read in linear time', () => {
    // Each look-behind is retried at every word boundary of a text with no match: one that may
    // reach back over the whole text (".*", "+", "*") makes the scan quadratic (64,000 chars
    // took 7 s). Read the source's look-behinds and look-aheads and require bounded repeats.
    const windows: string[] = [];
    const source = STATED_CAUSING;
    for (let i = source.indexOf('(?'); i >= 0; i = source.indexOf('(?', i + 1)) {
      if (!/^\(\?<?[!=]/.test(source.slice(i))) continue;
      let depth = 0;
      let end = i;
      for (; end < source.length; end++) {
        if (source[end] === '\\') end++;
        else if (source[end] === '(') depth++;
        else if (source[end] === ')' && --depth === 0) break;
      }
      windows.push(source.slice(i, end + 1));
    }
    expect(windows.length).toBeGreaterThan(0);
    for (const window of windows.filter((w) => w.startsWith('(?<')))
      expect(window.replace(/\\./g, '')).not.toMatch(/[*+]/);
    // And a look-ahead's repeat stops at a clause's end.
    for (const window of windows.filter((w) => /^\(\?[!=]/.test(w) && /[*+]/.test(w)))
      expect(window).toMatch(/\[\^[^\]]*[.;][^\]]*\][*+]/);
    // The long no-match text still gives no cue.
    const long = 'the cache was warm and if the index was stale we checked it again '.repeat(1000);
    expect(long.length).toBeGreaterThan(64_000);
    expect(new RegExp(STATED_CAUSING, 'iu').test(long)).toBe(false);
  });

  it('enters the bugs memory though it names no failure word', async () => {
    const records: ChunkRecord[] = [
      { role: 'user', text: 'revert that, it was the debug prints in render.ts' },
      {
        role: 'assistant',
        text: 'Got it! The debug prints were causing the rendering artifacts, and they are gone now.',
      },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: BUGS,
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).memory).toContain(
      'The debug prints were causing the rendering artifacts',
    );
  });
});

describe('a breaking change', () => {
  it('is a strong rule cue: what someone must know before working on the code', () => {
    for (const sentence of [
      'The `onSave` change is a breaking change for plugin authors.',
      'Flag any breaking changes in CHANGELOG.md before tagging.',
    ])
      expect(cuesIn(sentence)).toContainEqual({ family: 'rule', strength: 'strong' });
  });

  it('is no rule cue when denied', () => {
    for (const sentence of [
      'All 214 tests pass, no breaking changes.',
      'This is not a breaking change.',
      'A non-breaking change: the old option still works.',
      'This PR has no API breaking changes.',
      'No major breaking changes in v3.',
    ])
      expect(cuesIn(sentence)).not.toContainEqual({ family: 'rule', strength: 'strong' });
  });

  it('outweighs a plain line for the synthesis question', () => {
    const strength = lineStrength(
      'What is the current state of this project, and what should someone know before working on it?',
    );
    expect(
      strength('[architecture-decisions] Add breaking changes to CHANGELOG.md under [Unreleased]'),
    ).toBeGreaterThan(
      strength('[architecture-decisions] Add new entries to CHANGELOG.md under [Unreleased]'),
    );
  });
});

describe('a cause said as a bad state after "because"', () => {
  const bugsOf = async (text: string) => {
    const records: ChunkRecord[] = [{ role: 'assistant', text }];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: BUGS,
      memory: '',
      chunk: { text, records },
      memoryBudget: 200,
    });
    return parseGateAnswer(reply.text);
  };

  // The stop-31 reviewer's sentence: a bug with its cause, and no "root cause" said.
  it('is a strong cause cue, and the bug reaches the bugs note', async () => {
    const line =
      'The export ran against the replica rather than the primary because the connection string was wrong';
    expect(cuesIn(line)).toContainEqual({ family: 'cause', strength: 'strong' });
    const answer = await bugsOf(line);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('connection string was wrong');
    expect(
      cuesIn('Requests went to staging since the API_URL variable was missing in CI'),
    ).toContainEqual({ family: 'cause', strength: 'strong' });
    expect(
      cuesIn(
        'The test was flaky because the fixture date was wrong for leap years; I pinned it to 2024-03-01',
      ),
    ).toContainEqual({ family: 'cause', strength: 'strong' });
    // A requirement named that the bad state breaks is no meant behaviour.
    expect(
      cuesIn('The import dropped rows because the header was missing; the spec requires one'),
    ).toContainEqual({ family: 'cause', strength: 'strong' });
    // A hedge in an earlier clause doubts that clause, not this cause.
    expect(
      cuesIn('Not sure about the docs, but the deploy failed because the signing key was missing'),
    ).toContainEqual({ family: 'cause', strength: 'strong' });
    // A symptom said with "not" or "didn't", or a condition ending its clause before, leaves the
    // cause stated.
    for (const line of [
      'The session was not renewed because the refresh key was stale',
      "The worker didn't start because the queue URL was missing",
      'The import stops halfway if run twice because the lock file is stale',
    ])
      expect(cuesIn(line), line).toContainEqual({ family: 'cause', strength: 'strong' });
  });

  it.each([
    'Maybe because the cache was stale',
    'It was not because the token was expired',
    'The login worked because nothing was missing from the session',
    'Renamed the field because the old name was wrong to begin with',
    'We keep tokens in memory because the disk is slow',
    'Whether because the lockfile is outdated or the registry is down, nobody knows',
    // The stop-32 reviewer's lines: a hedge or denial a few words before, an act put off,
    // behaviour said to be meant.
    "I think it's because the cache was stale, but I haven't checked yet.",
    "The 401 wasn't because the token was expired",
    'It could be that the deploy failed because the key was missing',
    'Probably failing because the lockfile is outdated',
    'It is not just because the cache was stale',
    'Check if the deploy failed because the key was missing',
    'If the job failed because the token was expired, rerun it',
    'The upload fails, but if it is because the proxy config is wrong we can fix it',
    "Tests are skipped on Windows since the symlink fixture is missing there; that's deliberate and documented in CONTRIBUTING.md.",
    "I'm skipping this test for now because the fixture file is missing from the repo; I'll ask about it.",
    'The endpoint returns 404 because the record is missing, which is expected behaviour',
    'The endpoint returns 404 because the record is missing, as the spec requires',
    'The form shows a validation error because the email field is empty, which is the behaviour the ticket asks for.',
  ])(
    'a guess, a denial, a judgement, a quality, an act put off or a meant state is no strong cause: %s',
    (line) => {
      expect(cuesIn(line)).not.toContainEqual({ family: 'cause', strength: 'strong' });
    },
  );

  it('reads a long sentence with no bad state in linear time', () => {
    const long = `because ${'the cache and the index were '.repeat(4000)}fine`;
    // Many guesses, each far from the cause: the hedge window is tried once per "because".
    const hedged = `${'I think because the build '.repeat(2000)}because the x was wrong`;
    const started = performance.now();
    expect(cuesIn(long)).not.toContainEqual({ family: 'cause', strength: 'strong' });
    expect(cuesIn(hedged)).not.toContainEqual({ family: 'cause', strength: 'strong' });
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('a choice stated with its reason', () => {
  it.each([
    'We keep SQLite for the cache because Postgres would add a server to every install',
    'Phase 2: done. We pin Node 20 since the native addon has no build for 22',
    'Replaced `jest --coverage` with vitest because jest failed on ESM imports',
    'Switched the queue to Redis streams so that consumers can replay after a crash',
    // A reason with content of its own stays (stop-33 narrowing).
    'We keep one bundle because it is simpler to ship as a single file',
    'Replaced the tabs in the Makefile with spaces because make rejects mixed indentation',
  ])('is a strong decision cue: %s', (line) => {
    expect(cuesIn(line)).toContainEqual({ family: 'decision', strength: 'strong' });
  });

  it.each([
    "I'll replace the fetch wrapper with undici because the wrapper leaks sockets",
    'We could keep SQLite for the cache because it is simple',
    'We need to replace the parser since it drops comments',
    'The test replaced the clock because the timer was flaky',
    // The stop-33 reviewer's trivia, and ours: a choice for the spot at hand, or for a reason
    // that only says a tool or the writer liked it better.
    'Replaced the tab with spaces because prettier complained.',
    'We use the helper here because it is simpler.',
    'We use a Map here since lookups are by key',
    'Replaced the double quotes with single quotes because eslint complained',
    "We use the builder because it's cleaner",
  ])('is no strong decision cue as a step, a proposal or another subject: %s', (line) => {
    expect(cuesIn(line)).not.toContainEqual({ family: 'decision', strength: 'strong' });
  });
});
