/** A text cut to a budget, and how many characters were cut (0 when it fit). */
export interface CappedText {
  text: string;
  cut: number;
}

/** Share of the budget kept from the start; the rest comes from the end, where errors and summaries land. */
const HEAD_SHARE = 0.7;

/**
 * Cuts `text` longer than `cap` characters to its head and tail, with a marker in between saying
 * how much was cut. Tool output is evidence by its shape (what ran, did it fail, what it ended
 * with), not by its megabytes.
 */
export function capText(text: string, cap: number): CappedText {
  if (cap <= 0 || text.length <= cap) return { text, cut: 0 };
  let head = Math.floor(cap * HEAD_SHARE);
  let tailStart = text.length - (cap - head);
  // Never split a surrogate pair.
  if (isLowSurrogate(text.charCodeAt(head))) head -= 1;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
  const cut = tailStart - head;
  return { text: `${text.slice(0, head)}\n[… ${cut} chars cut …]\n${text.slice(tailStart)}`, cut };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
