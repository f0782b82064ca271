import { describe, expect, it } from 'vitest';
import { isToolFailure, routeLine, routedKinds } from './route.js';

/*
 * The line router reads what a line states: a question asked or work marked pending is open, a
 * symptom or a fix is a bug (a tool failure where what failed is a run), any other statement
 * of how the system is built is a decision. Cue words of another kind do not move a line: a
 * decision's "because" is its reason, a design that returns an error is a choice, a failure
 * nobody explained is still open.
 */
describe('routeLine', () => {
  it('a question, a "whether" and work still pending are open', () => {
    expect(routeLine('Does the session header include the model?')).toBe('open');
    expect(routeLine('Whether the cache should be shared across workers is unresolved')).toBe(
      'open',
    );
    expect(routeLine('The importer migration still needs tests and a release note')).toBe('open');
    expect(routeLine('The export job is not started')).toBe('open');
  });

  it('a failure whose cause nobody found is open, not a bug', () => {
    expect(routeLine('The nightly build failed for an unexplained reason')).toBe('open');
  });

  it('a symptom or a fix is a bug', () => {
    expect(routeLine('The upload failed with a timeout behind the proxy')).toBe('cause');
    expect(routeLine('Stale artifacts broke the build; a clean rebuild fixed it')).toBe('tool');
    expect(routeLine('The worker ignored the configured retry limit')).toBe('cause');
    expect(routeLine('The parser does not support nested tables, so it was rewritten')).toBe(
      'cause',
    );
  });

  it('a thing said to be outdated is a bug, even beside a choice\'s "instead of"', () => {
    expect(
      routeLine(
        'The signature changed - the helper now takes a callback instead of an options object. The specs are outdated.',
      ),
    ).toBe('cause');
    expect(routeLine('The fixtures were out of date after the schema change')).toBe('cause');
    // Named as what a choice replaced, or denied, it is no symptom.
    expect(routeLine('Replaced the outdated request client with undici instead of axios')).toBe(
      'decision',
    );
    expect(routeLine('The lockfile is not outdated; pnpm is used instead of npm')).toBe('decision');
  });

  it('a request to the agent is no reported fix, though it says "fixed"', () => {
    expect(routeLine('run the importer tests after you fixed them up')).toBe('decision');
    expect(
      routeLine('alright, commit and push, comment with "Thanks, fixed in the next release"'),
    ).toBe('decision');
    // A request that names a symptom still states it.
    expect(routeLine('run the upload test again, it failed with a timeout on CI')).toBe('tool');
    expect(routeLine('The retry loop was fixed by capping the backoff')).toBe('cause');
  });

  it('a choice with its reason is a decision, whatever cue words it holds', () => {
    expect(routeLine('Writes go through one lock file because NFS has no flock')).toBe('decision');
    expect(routeLine('A malformed config never crashes startup: it falls back to defaults')).toBe(
      'decision',
    );
    expect(routeLine('Bad input returns a typed error naming the field')).toBe('decision');
    expect(routeLine('Allow startup without API keys, fixes #288')).toBe('decision');
    expect(routeLine('State lives in a TODO app store persisted to localStorage')).toBe('decision');
  });
});

describe('a choice whose reason names the alternative broken', () => {
  it('is a decision: the failure is the rejected alternative’s, nothing is mended', () => {
    expect(
      routeLine('Themes use explicit tokens instead of chalk because chalk broke under NO_COLOR'),
    ).toBe('decision');
    expect(routeLine('Switched to pnpm since npm install kept failing on the CI image')).toBe(
      'decision',
    );
    expect(
      routeLine('Chose SQLite for the cache because LevelDB crashed on Windows, and kept WAL on'),
    ).toBe('decision');
  });

  it('stays a bug when a fix is said, a symptom stands outside the reason, or nothing is chosen', () => {
    expect(
      routeLine('Fixed the crash by using a Map instead of an object because the keys collide'),
    ).toBe('cause');
    expect(routeLine('The build failed because the lockfile is read instead of the manifest')).toBe(
      'tool',
    );
    expect(routeLine('The upload fails because the proxy drops large bodies')).toBe('cause');
    expect(routeLine('Uploads time out instead of retrying, because the proxy is broken')).toBe(
      'cause',
    );
  });

  // A reviewer's inputs, written outside the fixtures: bug reports that say "instead of" or
  // "because"/"since" without anyone choosing.
  it.each([
    'Requests went to the staging API instead of production because the env var was missing',
    'Vitest ran the compiled JS instead of the TS sources because the include glob was wrong',
    'The resolver chose the ESM build because the exports map was wrong',
    'Python imported the system package instead of the venv one since PYTHONPATH was wrong',
    'Switched to Vite; since then the build has failed twice on CI',
  ])('stays a bug when nobody chose, or the reason is a state or a time: %s', (line) => {
    expect(routeLine(line)).not.toBe('decision');
  });

  it('reads "we should default / use X since Y can\'t" as a choice with its reason', () => {
    // The demo's bugs note kept this concession (pi-mono-session, a held-out gold file).
    expect(
      routeLine(
        'Corrected: If there\'s no model, we should default thinking to "off" since we can\'t do reasoning without a model.',
      ),
    ).toBe('decision');
    expect(routeLine("We should use a lock file since two writers can't share the log")).toBe(
      'decision',
    );
    // A fix recommended, or a thing (not a chooser) that "should", stays a bug.
    expect(routeLine("We should fix the parser since it can't read CRLF input")).toBe('cause');
    expect(routeLine("The importer should use UTF-8 since it can't read CRLF")).toBe('cause');
    expect(
      routeLine('It should fall back to the dark theme since the custom theme failed to load'),
    ).not.toBe('decision');
  });

  it('keeps a choice with its reason when someone chose and the alternative failed', () => {
    expect(routeLine('We pin Node 20 rather than 22 because the native addon crashed on 22')).toBe(
      'decision',
    );
  });

  it('gives up on a line too long to be one choice, in linear time', () => {
    const long = `${'Themes use tokens instead of chalk because chalk broke, '.repeat(4000)}end`;
    const started = performance.now();
    expect(routeLine(long)).not.toBe('decision');
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('a failing run’s own working form, chosen for its failure', () => {
  // The stop-31 reviewer's sentence: a workaround a failing tool forced is tool knowledge.
  it('is a tool failure with its working form, not a decision', () => {
    expect(
      routeLine(
        'Used `npm install --legacy-peer-deps` instead of a plain install because npm install failed with ERESOLVE',
      ),
    ).toBe('tool');
    expect(
      routeLine(
        'Ran `git push --no-verify` rather than a plain push because git push failed on the lint hook',
      ),
    ).toBe('tool');
    expect(
      routeLine(
        'Replaced a plain install with `npm install --legacy-peer-deps` because npm install failed with ERESOLVE',
      ),
    ).toBe('tool');
  });

  it.each([
    // Another program chosen: a choice between tools that work.
    'Switched to `pnpm install` because npm install kept failing on the CI image',
    // The reason's failure is no run: a library broke.
    'Themes use `ink render` instead of chalk because chalk broke under NO_COLOR',
    // No command in backticks on the chosen side.
    'We pin Node 20 rather than 22 because the native addon crashed on 22',
    // A command chosen, its reason no failure at all.
    'Use `npm ci` instead of npm install because it keeps the lockfile exact',
    // The failing program's command on the rejected side only (the stop-32 reviewer's lines).
    'We use `pnpm install` instead of `npm install` because npm install failed with ERESOLVE on the peer deps',
    "We use `pnpm install` instead of `npm install` because npm install failed with ERESOLVE on the workspace peer deps, and pnpm's strict hoisting avoids it.",
    'Replaced `jest --coverage` with vitest because jest failed with "SyntaxError: Cannot use import statement outside a module"',
  ])('stays a decision when the choice is between working options: %s', (line) => {
    expect(routeLine(line)).toBe('decision');
  });
});

describe('a cause stated, then a question', () => {
  it('is a bug: the cause is the finding, the question asks something further', () => {
    expect(routeLine('The crash came from a null theme — is the light theme affected too?')).toBe(
      'cause',
    );
    expect(routeLine('The issue was a stale cache; should the CI clear it on every run?')).toBe(
      'cause',
    );
    expect(
      routeLine('The login loop was caused by a stale cookie. Do other browsers keep it?'),
    ).toBe('cause');
  });

  it('stays open when the question asks the cause, or the line says it is unsettled', () => {
    expect(routeLine('The upload fails behind the proxy. Any idea why?')).toBe('open');
    expect(routeLine('Is the crash caused by the stale cache?')).toBe('open');
    expect(routeLine('The export hangs on large files, maybe because of the zip stream?')).toBe(
      'open',
    );
    expect(routeLine('The crash came from a null theme. Is the fallback still undecided?')).toBe(
      'open',
    );
    expect(routeLine('We use Redis for the queue. Should we move to Postgres?')).toBe('open');
  });

  it('stays open when the question puts the stated cause itself in doubt', () => {
    expect(routeLine('The crash is caused by the stale cache — or is it the clock skew?')).toBe(
      'open',
    );
    expect(
      routeLine('The tests fail intermittently because of the cache - or is it the clock?'),
    ).toBe('open');
    expect(routeLine('The build broke because of the lockfile; or was it the Node upgrade?')).toBe(
      'open',
    );
    expect(routeLine('The crash came from a null theme — right?')).toBe('open');
  });
});

describe('tool failures', () => {
  it('the working form a docstring cites: a run named, mended by a command; a bare command fix is no run', () => {
    expect(routeLine('The stale build was fixed by `npm ci`')).toBe('tool');
    expect(routeLine('The login crash was fixed by `npm ci`')).toBe('cause');
  });

  it('routes a run mended by the command it names as a tool failure, without a failure verb', () => {
    expect(
      routeLine(
        'Stale build artifacts after a rename: `mix compile --force` resolved the ordering',
      ),
    ).toBe('tool');
    expect(routeLine('The flaky test run was fixed by `npm ci --prefer-offline`')).toBe('tool');
    // A product's bug mended by a function, or by a command with no run in sight, is no run.
    expect(
      routeLine('The stale colours in the build preview were fixed by calling `invalidate()`'),
    ).toBe('cause');
    expect(routeLine('The dropdown is broken; `git revert abc123` fixed it')).toBe('cause');
  });

  it('routes a run that failed, or an error quoted from its output, as a tool failure', () => {
    expect(routeLine('Compile errors for a missing module: fixed by creating the file')).toBe(
      'tool',
    );
    expect(routeLine('The sed command did not work because of the multiline format')).toBe('tool');
    expect(
      routeLine(
        'The generated migration uses ALTER TABLE (unsupported in SQLite): rewritten by hand',
      ),
    ).toBe('tool');
    expect(routeLine('The upload test failed with a timeout on CI')).toBe('tool');
    expect(
      routeLine('`make check` failed with "src/a.ts(3,5): error TS2322"; fixed the type'),
    ).toBe('tool');
    expect(routeLine('Crash "Invalid hex color: #000cc" at hexToRgb; fixed with a fallback')).toBe(
      'tool',
    );
    expect(routeLine('Schema DSL error "Cannot accept [:state]"; fixed by declaring it')).toBe(
      'tool',
    );
    // What a run reported under its name, and a run's form the database doesn't support.
    expect(routeLine('LiveView test: missing secret_key_base: added it to config/test.exs')).toBe(
      'tool',
    );
    expect(
      routeLine("The generated migration modifies a column, which SQLite doesn't support natively"),
    ).toBe('tool');
  });

  it("routes a linter's warning as a tool failure, a product's warning or a clean lint as none", () => {
    expect(
      routeLine('Credo warned about length/1 in a guard; replaced by the pattern match [_ | _]'),
    ).toBe('tool');
    expect(routeLine('ESLint warnings about unused imports: removed the imports')).toBe('tool');
    expect(routeLine('The settings page warns before deleting a project, which users missed')).toBe(
      'cause',
    );
    expect(isToolFailure('The release passed lint with no warnings')).toBe(false);
  });

  // A reviewer's inputs, written outside the fixtures: lint configured, or a clean lint run.
  it.each([
    'Set `no-console` to warn in the ESLint config so stray logs show up in review',
    'Added an ESLint rule that warns on floating promises',
    'Configured ruff to warn about unused imports',
    'ESLint finished with 0 errors and 0 warnings',
    'cargo clippy --all-targets passes with zero warnings',
  ])('is no tool failure: lint configured or clean: %s', (line) => {
    expect(isToolFailure(line)).toBe(false);
  });

  it('keeps a bug of the product, a changelog fix or a user report as a bug, not a tool failure', () => {
    expect(routeLine('Users could not log in because the session loader threw an error')).toBe(
      'cause',
    );
    expect(routeLine('Fixed terminal detection inside tmux by checking an env var')).toBe('cause');
    expect(routeLine('The renderer returned lines that were not padded, a wrong width')).toBe(
      'cause',
    );
    expect(routeLine('Scrolling back in the terminal view still does not work')).toBe('cause');
    expect(routeLine('Fixed the incorrect claim about event timeouts in the docs')).toBe('cause');
    expect(isToolFailure('Added tests for width padding and edge cases')).toBe(false);
    // Missing, wrong or broken near a word like "build", "test" or "install" is the product's.
    for (const line of [
      'The Install button is missing on the settings page.',
      'The test for empty input is missing.',
      'Users see a wrong total on the build status page.',
      'Syntax highlighting is broken in dark mode.',
      'Change the error "Not found" to name the file.',
    ])
      expect(routeLine(line)).toBe('cause');
    expect(routeLine('The TypeScript compilation passed with no errors')).toBe('decision');
    expect(
      isToolFailure('The build no longer fails since the cache is keyed by the lockfile'),
    ).toBe(false);
  });
});

describe('routedKinds', () => {
  it('names the kinds a question asks for, none for a factual one', () => {
    expect([...routedKinds('What bugs or failures were found?')]).toEqual(['cause', 'tool']);
    expect([
      ...routedKinds('Which tool calls or commands failed, with what error, and what was the fix?'),
    ]).toEqual(['tool']);
    expect([...routedKinds('Which builds failed, and what bugs caused them?')]).toEqual([
      'cause',
      'tool',
    ]);
    // A run named as the fix, not as what failed, leaves every bug asked for.
    expect([...routedKinds('What errors happened, and which commands fixed them?')]).toEqual([
      'cause',
      'tool',
    ]);
    expect([...routedKinds('Which migrations did we write, and what bugs did we hit?')]).toEqual([
      'cause',
      'tool',
    ]);
    expect([...routedKinds('What failed builds were there, and with what error?')]).toEqual([
      'tool',
    ]);
    expect([...routedKinds('What architectural decisions were made?')]).toEqual(['decision']);
    expect([...routedKinds('What questions were raised and left unresolved?')]).toEqual(['open']);
    expect(routedKinds('When did Caroline move to Sweden?').size).toBe(0);
  });
});
