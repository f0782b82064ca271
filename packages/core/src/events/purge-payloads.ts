import { z } from 'zod';
import { countField, sha256Field } from './fields.js';

/*
 * `purge` is the one rewrite of history (DESIGN §9): a text that must leave every byte is
 * replaced, in the lines that hold it, by a marker naming its content sha. The rewritten lines
 * keep their seq, prev and identity shas (what cites them still resolves); the `purged` event
 * appended after the rewrite names each one's line hash before and after, which is exactly the
 * set of chain breaks `mem verify` then accepts.
 */

const MARKER_PREFIX = '[purged sha256:';
const MARKER = /\[purged sha256:[0-9a-f]{64}\]/;

/** The text that stands where a purged text was: `[purged sha256:<content sha of the text>]`. */
export function purgeMarker(contentSha: string): string {
  return `${MARKER_PREFIX}${contentSha}]`;
}

/** True when `text` holds a purge marker: its content sha then predates the purge (see parse.ts). */
export function hasPurgeMarker(text: string): boolean {
  return text.includes(MARKER_PREFIX) && MARKER.test(text);
}

/** One rewritten line: its seq and the sha256 of its bytes before and after the purge. */
export const purgedLineField = z.strictObject({
  seq: countField,
  old: sha256Field,
  new: sha256Field,
});

export const purgedShape = {
  /** The content sha of the purged text: what its markers name. */
  text_sha256: sha256Field,
  reason: z.string().min(1, 'expected a non-empty reason'),
  lines: z.array(purgedLineField).min(1, 'expected at least one rewritten line'),
};
