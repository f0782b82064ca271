/** Grapheme clusters, so a cut never separates a base from its combining marks or an emoji from its ZWJ parts. */
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
/**
 * The UTF-8 length of `text`: what an orientation budget counts (bytes track tokens across
 * scripts; characters do not). Counted, not encoded: orient measures every entry it lists, and
 * an encoded copy of each was most of its garbage. A lone surrogate counts 3 bytes, as
 * TextEncoder writes it (U+FFFD).
 */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes, ending in `…` when cut. Trigger: a one-line
 * summary over its allowance. Why: a byte slice can end mid-sequence (a CJK character is 3
 * bytes, an emoji 4 and a family emoji 25), leaving an invalid tail. Outcome: whole grapheme
 * clusters only, so the result is valid UTF-8 and never ends on half a character.
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  const ellipsis = '…';
  const room = maxBytes - utf8Bytes(ellipsis);
  if (room < 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = utf8Bytes(segment);
    if (used + size > room) break;
    out += segment;
    used += size;
  }
  return out + ellipsis;
}
