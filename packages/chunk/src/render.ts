import type { RecordRole } from './record.js';

/*
 * Chunk text format. Each record is one block:
 *
 *   [assistant]
 *   <the record's text>
 *   <blank line>
 *
 * and a chunk's text is its blocks concatenated. A part of a split record is headed
 * `[assistant, continued]` from the second part on. Deterministic: no timestamps, no numbers.
 *
 * Why every block ends in a blank line (the chunk's text included): each block starts with `[`
 * right after a line break, where a Qwen2/GPT-style pre-tokenizer always cuts and never lets
 * the cut change the tokens before it. So a chunk's token count is exactly the sum of its
 * blocks' counts, and packing costs one count per record instead of recounting the chunk.
 */

const TRAILER = '\n\n';

/** The header line of a block, with its line break. */
export function blockHeader(role: RecordRole, continued: boolean): string {
  return continued ? `[${role}, continued]\n` : `[${role}]\n`;
}

/** A rendered block and where the record's text sits inside it. */
export interface RenderedBlock {
  text: string;
  /** Offset of the record's text within `text`. */
  textStart: number;
}

/** Renders one record (or one part of a split record) as a block. */
export function renderBlock(role: RecordRole, text: string, continued = false): RenderedBlock {
  const header = blockHeader(role, continued);
  return { text: header + text + TRAILER, textStart: header.length };
}
