/**
 * Splits text on a vocabulary's added tokens (`<|im_start|>`, `<tool_call>`, …), which are
 * matched on the raw text before normalisation and pre-tokenisation and count as one token
 * each. Leftmost-longest, as the reference library's splitter does.
 */
export class AddedTokenSplitter {
  readonly #pattern: RegExp | null;
  readonly #firstChars: string[];

  constructor(contents: readonly string[]) {
    const tokens = [...new Set(contents.filter((c) => c.length > 0))].sort(
      (a, b) => b.length - a.length || (a < b ? -1 : 1),
    );
    this.#pattern =
      tokens.length === 0 ? null : new RegExp(tokens.map(escapeRegExp).join('|'), 'g');
    this.#firstChars = [...new Set(tokens.map((t) => t.charAt(0)))];
  }

  /**
   * Calls `onText` for each stretch of ordinary text and returns how many added tokens were
   * found between them.
   */
  split(text: string, onText: (section: string) => void): number {
    if (this.#pattern === null || !this.#firstChars.some((c) => text.includes(c))) {
      if (text.length > 0) onText(text);
      return 0;
    }
    const pattern = this.#pattern;
    pattern.lastIndex = 0;
    let found = 0;
    let previous = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m.index > previous) onText(text.slice(previous, m.index));
      found += 1;
      previous = m.index + m[0].length;
    }
    if (previous < text.length) onText(text.slice(previous));
    return found;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
