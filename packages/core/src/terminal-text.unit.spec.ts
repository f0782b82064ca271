import { describe, expect, it } from 'vitest';
import { refusedControl, terminalSafe } from './terminal-text.js';

describe('terminal text', () => {
  it('shows ESC, BEL, CR, C1 and bidi controls as visible escapes, newline and tab as they are', () => {
    expect(terminalSafe('a\u0007b\u001b[31mred\r\u009bx\u202eevil\u2066y\n\tz')).toBe(
      'a\\x07b\\x1b[31mred\\x0d\\x9bx\\u202eevil\\u2066y\n\tz',
    );
  });

  it('shows zero-width space, word joiner and BOM, keeps ZWJ and ZWNJ (emoji, Persian)', () => {
    expect(terminalSafe('a\u200bb\u2060c\ufeffd')).toBe('a\\u200bb\\u2060c\\ufeffd');
    const family =
      '\u{1F468}\u200d\u{1F469}\u200d\u{1F467} \u0645\u06cc\u200c\u062e\u0648\u0627\u0645';
    expect(terminalSafe(family)).toBe(family);
  });

  it('refuses for writing the controls and bidi overrides, with where, but not ZWJ, ZWNJ, tab, newline', () => {
    expect(refusedControl('ok\u001b[31m')).toEqual({ char: '\u001b', index: 2 });
    expect(refusedControl('\u202eabc')).toEqual({ char: '\u202e', index: 0 });
    expect(refusedControl('x\u2069')).toEqual({ char: '\u2069', index: 1 });
    expect(refusedControl('x\u0085')).toEqual({ char: '\u0085', index: 1 });
    expect(refusedControl('a\u200db\u200cc\n\td \u00e9')).toBeNull();
  });
});
