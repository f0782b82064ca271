import { describe, expect, it } from 'vitest';
import { routeLine, routedKinds } from './route.js';

/*
 * The line router reads what a line states: a question asked or work marked pending is open, a
 * symptom or a fix is a bug, any other statement of how the system is built is a decision.
 * Cue words of another kind do not move a line: a decision's "because" is its reason, a design
 * that returns an error is a choice, a failure nobody explained is still open.
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
    expect(routeLine('The upload test failed with a timeout on CI')).toBe('cause');
    expect(routeLine('Stale artifacts broke the build; a clean rebuild fixed it')).toBe('cause');
    expect(routeLine('The worker ignored the configured retry limit')).toBe('cause');
    expect(routeLine('The parser does not support nested tables, so it was rewritten')).toBe(
      'cause',
    );
  });

  it('a request to the agent is no reported fix, though it says "fixed"', () => {
    expect(routeLine('run the importer tests after you fixed them up')).not.toBe('cause');
    expect(
      routeLine('alright, commit and push, comment with "Thanks, fixed in the next release"'),
    ).not.toBe('cause');
    // A request that names a symptom still states it.
    expect(routeLine('run the upload test again, it failed with a timeout on CI')).toBe('cause');
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

describe('routedKinds', () => {
  it('names the kinds a question asks for, none for a factual one', () => {
    expect([...routedKinds('What bugs or failures were found?')]).toEqual(['cause']);
    expect([...routedKinds('What architectural decisions were made?')]).toEqual(['decision']);
    expect([...routedKinds('What questions were raised and left unresolved?')]).toEqual(['open']);
    expect(routedKinds('When did Caroline move to Sweden?').size).toBe(0);
  });
});
