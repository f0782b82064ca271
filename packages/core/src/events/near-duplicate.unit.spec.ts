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
});
