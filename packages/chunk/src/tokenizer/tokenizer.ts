/**
 * Counts tokens. The chunker sizes chunks with it and the extractor sizes memories with the
 * same counter, so a budget means the same thing on both sides.
 *
 * The chunker relies on one property: count(a + b) === count(a) + count(b) when `a` ends with a
 * line break and `b` starts with `[`. Qwen2/GPT-style pre-tokenizers always cut there (see
 * render.ts); a counter that does not must not be given to the chunker.
 */
export interface Tokenizer {
  /** Stable name of the vocabulary, recorded with what was sized by it (e.g. `qwen2.5`). */
  readonly name: string;
  /** Exact number of tokens `text` encodes to, without any special tokens added around it. */
  count(text: string): number;
}
