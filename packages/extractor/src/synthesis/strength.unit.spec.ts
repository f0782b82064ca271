import { describe, expect, it } from 'vitest';
import { isGuess, synthesisKind, synthesisPriority } from './strength.js';

const question =
  'What is the current state of this project, and what should someone know before working on it?';

describe('synthesisKind', () => {
  it('reads what a line says, not the note it was copied from', () => {
    expect(synthesisKind('[bugs] Always rebase feature branches onto main before a merge')).toBe(
      'rule',
    );
    expect(synthesisKind('[decisions] Releases must be tagged from the release branch')).toBe(
      'rule',
    );
    expect(synthesisKind('[decisions] We chose SQLite over Postgres for the local cache')).toBe(
      'decision',
    );
    expect(synthesisKind('[decisions] The scheduler reads jobs from Redis rather than cron')).toBe(
      'decision',
    );
    expect(
      synthesisKind('[decisions] Exports: CSV and Parquet, with a schema header on every file'),
    ).toBe('state');
    expect(synthesisKind('[bugs] Is the retry budget shared between workers?')).toBe('open');
    expect(synthesisKind('[open] The upload size limit is still undecided')).toBe('open');
    expect(synthesisKind('[decisions] The importer crashed on an empty header row')).toBe(
      'incident',
    );
    expect(synthesisKind('[tools] `make dist` failed with "No rule to make target"')).toBe(
      'incident',
    );
  });

  it('takes no everyday word for a rule or a decision', () => {
    // "never" said of a bug is a complaint, not a rule; a plain description is state.
    expect(synthesisKind('[bugs] The page crashed on save, which should never happen')).toBe(
      'incident',
    );
    expect(synthesisKind('[decisions] The dashboard shows one card per running job')).toBe('state');
    expect(synthesisKind('[decisions] No breaking changes in this release')).toBe('state');
  });
});

describe('isGuess', () => {
  it('finds a speaker who is not sure', () => {
    for (const line of [
      '[bugs] The issue is likely that the proxy strips the header',
      '[bugs] It might be loading the light theme instead of the dark one',
      '[decisions] I bet the terminal converts the colours to 256',
      '[bugs] The timeout could be the slow DNS lookup',
      '[bugs] The cache seems to keep stale entries',
    ])
      expect(isGuess(line), line).toBe(true);
  });

  it('does not take a settled statement for a guess', () => {
    for (const line of [
      '[decisions] Likewise the exporter writes one file per table',
      '[decisions] The May 2024 release dropped Node 18',
      '[bugs] The root cause was a missing index; fixed by adding it',
      '[decisions] Think of the log as the only source of truth',
      '[decisions] Users may export their notes as Markdown',
    ])
      expect(isGuess(line), line).toBe(false);
  });
});

describe('synthesisPriority', () => {
  const priority = synthesisPriority(question);
  const order = (lines: string[]) => {
    const scores = priority(lines);
    return lines.map((line, i) => ({ line, score: scores[i]! })).sort((a, b) => b.score - a.score);
  };

  it("offers every kind's best line before any kind's second", () => {
    const incidents = [
      '[bugs] The root cause of the crash was an invalid hex colour; fixed with a fallback',
      '[bugs] The issue was a stale build; the failing compile was fixed by a clean rebuild',
      '[bugs] The sync error was caused by a timeout in the retry loop; fixed with a backoff',
    ];
    const state =
      '[decisions] Theme System: 44 colour tokens, dark and light themes, custom themes in ~/.pi/themes';
    const rule = '[decisions] Always run npm run check before a commit';
    const ranked = order([...incidents, state, rule]).map((r) => r.line);
    expect(ranked.slice(0, 3)).toEqual([rule, state, ranked[2]]);
    expect(incidents).toContain(ranked[2]);
    expect(new Set(ranked.slice(2))).toEqual(new Set(incidents));
  });

  it('ranks the lines of one kind by their cue score, then the fuller line first', () => {
    const stated = '[bugs] The root cause of the hang was a lock held across an await';
    const bare = '[bugs] The export page is broken';
    const fuller =
      '[decisions] Storage: notes in SQLite, vectors in pgvector, the vault rebuilt from the log';
    const shorter = '[decisions] Storage: notes in SQLite';
    expect(order([bare, stated]).map((r) => r.line)).toEqual([stated, bare]);
    expect(order([shorter, fuller]).map((r) => r.line)).toEqual([fuller, shorter]);
  });

  it('keeps a guess only after every settled line, whatever its kind', () => {
    const guess = '[bugs] The root cause is likely a race between the two writers';
    const settled = [
      '[bugs] The importer crashed on an empty header row; fixed by skipping it',
      '[bugs] The nightly build failed on a missing lockfile; fixed by committing it',
      '[decisions] Exports: CSV and Parquet',
    ];
    expect(order([guess, ...settled]).at(-1)!.line).toBe(guess);
  });

  it('gives one score per line, the same whatever order the lines come in', () => {
    const lines = [
      '[bugs] The importer crashed on an empty header row; fixed by skipping it',
      '[bugs] The root cause is likely a race between the two writers',
      '[decisions] Exports: CSV and Parquet',
      '[decisions] Storage: notes in SQLite, because the store must be embedded',
      '[open] Should the cache be per tenant?',
    ];
    const byText = (order: string[]) => {
      const scores = priority(order);
      expect(scores).toHaveLength(order.length);
      return Object.fromEntries(order.map((line, i) => [line, scores[i]]));
    };
    const reversed = [...lines].reverse();
    const rotated = [...lines.slice(2), ...lines.slice(0, 2)];
    expect(byText(reversed)).toEqual(byText(lines));
    expect(byText(rotated)).toEqual(byText(lines));
  });
});
