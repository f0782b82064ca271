import { describe, expect, it } from 'vitest';
import { nearDuplicate } from './near-duplicate.js';

describe('nearDuplicate', () => {
  it('folds one sentence with different endings, across query prefixes', () => {
    const a =
      '[architecture-decisions] Yeah, it does more than just load the theme file from disk: it resolves every variable reference';
    const b =
      '[bugs-and-root-causes] Yeah, it does more than just load the theme file from disk: it resolves every variable…';
    expect(nearDuplicate(a, b)).toBe(true);
  });

  it('folds a reworded finding that shares most of its words', () => {
    expect(
      nearDuplicate(
        'Crash "Invalid hex color: #000cc" at hexToRgb; fixed by falling back to the dark theme',
        'Invalid hex color #000cc crash at hexToRgb, fixed by a fallback to the dark theme',
      ),
    ).toBe(true);
  });

  it('keeps apart two findings about the same file', () => {
    expect(
      nearDuplicate(
        'The theme loader crashed on an invalid hex colour in theme.ts',
        'The theme loader now caches parsed themes in theme.ts to speed up startup',
      ),
    ).toBe(false);
  });

  it('keeps apart two short lines that share one word', () => {
    expect(nearDuplicate('no deprecation alias!', 'no console logs')).toBe(false);
    expect(nearDuplicate('stop committing everything', 'stop committing everything')).toBe(true);
  });

  it('keeps apart two lines that differ in the one word that carries the fact', () => {
    const pairs: [string, string][] = [
      [
        'Deploy the release to the staging hosts before tagging it',
        'Deploy the release to the canary hosts before tagging it',
      ],
      [
        'The dev server listens on port 8080 behind the proxy',
        'The dev server listens on port 8081 behind the proxy',
      ],
      [
        'Enable the file watcher in the vault projector at startup',
        'Disable the file watcher in the vault projector at startup',
      ],
      ['Run the migrations before the server starts', 'Run the migrations after the server starts'],
    ];
    for (const [a, b] of pairs) expect(nearDuplicate(a, b), `${a} / ${b}`).toBe(false);
  });

  it('keeps a line apart from its negation, however the negation is spelled', () => {
    const line = 'Commit the generated vault notes to the repository';
    for (const negated of [
      'Do not commit the generated vault notes to the repository',
      "Don't commit the generated vault notes to the repository",
      'Never commit the generated vault notes to the repository',
      'No: commit the generated vault notes to the repository',
    ])
      expect(nearDuplicate(line, negated), negated).toBe(false);
    expect(
      nearDuplicate(
        'Never commit the generated vault notes to the repository',
        'Do not commit the generated vault notes to the repository',
      ),
    ).toBe(true);
  });

  it('still folds a word in another form, or a word cut short', () => {
    expect(
      nearDuplicate(
        'The theme loader crashes on an invalid hex colour and falls back to the dark theme',
        'The theme loader crashed on an invalid hex color and falls back to the dark theme',
      ),
    ).toBe(true);
    expect(
      nearDuplicate(
        'The exporter writes every note of the vault to disk atomically',
        'The exporter writes every note of the vault to di…',
      ),
    ).toBe(true);
  });
});
