import { z } from 'zod';
import { sha256Field } from './fields.js';

/*
 * Correction events (DESIGN §4, §9): the mutation ledger. Every one names its target by sha and
 * carries a reason; who did it is the envelope's writer (principal and token label). The text a
 * mutation removes never appears here: only hashes of its normal form (identity.ts), so the
 * ledger itself cannot resurface what it forgot.
 */

/** A 16-hex prefix of the sha256 of one stemmed content term: what the reword matcher compares. */
export const termHashField = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'expected a term hash: 16 lowercase hex characters');

const reasonField = z.string().trim().min(1, 'expected a non-empty reason');

/** What a ref resolved to: one line of a memory, or a whole memory. */
export const targetKindField = z.enum(['line', 'memory']);

/** One forgotten line: its content sha and its term hashes (sorted, distinct). */
export const forgottenLineField = z.strictObject({
  sha256: sha256Field,
  terms: z.array(termHashField),
});

export const forgottenShape = {
  target: sha256Field,
  target_kind: targetKindField,
  /** The before hash: the content sha of the forgotten text (a line's, or the whole memory's). */
  before_sha256: sha256Field,
  /**
   * Every line the tombstone refuses on the next write (one for a line target). Not `lines`:
   * serialize.ts orders array entries by field name, and `lines` entries are a memory's.
   */
  refuses: z.array(forgottenLineField).min(1, 'expected at least one forgotten line'),
  reason: reasonField,
};

export const supersededShape = {
  target: sha256Field,
  target_kind: targetKindField,
  before_sha256: sha256Field,
  /** The content sha of the text that replaces it: the new line's identity. */
  after_sha256: sha256Field,
  /** The replacing text. It is the live value, not a removed one, so it is stored. */
  text: z.string().trim().min(1, 'expected the replacing text'),
  reason: reasonField,
  /**
   * A line's cited L0 chunks as they read when it was superseded (as on `confirmed`): the
   * replacement keeps the old line's citations, and was written by a person who read the
   * source as it is now, so it is confirmed against these spans. Absent in older logs.
   */
  cited: z
    .array(z.strictObject({ chunk: sha256Field, digest: sha256Field }))
    .min(1)
    .optional(),
};

export const confirmedShape = {
  target: sha256Field,
  target_kind: targetKindField,
  /** The content sha of the text confirmed: what was true when a person said so. */
  before_sha256: sha256Field,
  note: z.string().trim().min(1).optional(),
  /**
   * A line's cited L0 chunks as they read when it was confirmed (issue 13 §4): each chunk's sha
   * and the digest of its span re-read then. Recall treats a changed chunk whose span still
   * reads so as confirmed (fresh); a later change makes the line stale again. Absent on a
   * memory's confirmation, on one whose sources are not on this disk, and in older logs.
   */
  cited: z
    .array(z.strictObject({ chunk: sha256Field, digest: sha256Field }))
    .min(1)
    .optional(),
};

/**
 * A memory line pinned (issue 13 §5): it leads its relevance band in recall, as a pinned item
 * does, never above a stronger match. Names the line by sha and level (a line node's key); who
 * pinned it is the envelope's writer, and the payload says why. Unpinned the same way.
 */
export const linePinnedShape = {
  target: sha256Field,
  level: z.enum(['L1', 'L2']),
  reason: reasonField,
};

export const lineUnpinnedShape = linePinnedShape;

/**
 * A forced write of a line a tombstone refuses (`--force`). Recorded beside the write so the
 * review queue can open a `resurfacing` finding from it later.
 */
export const resurfacedShape = {
  /** The forgotten event's target: the tombstone that was overridden. */
  tombstone: sha256Field,
  /** The content sha of the line written anyway. */
  line_sha256: sha256Field,
  match: z.enum(['exact', 'reword']),
};

/**
 * A line a person wrote into an L1 note or the L2 index in the vault (`mem vault capture`):
 * curated text that belongs to its note, not to a memory, so it stays live however the note's
 * memory changes until it is forgotten or superseded like any line. `after` is the line it was
 * written under (null: the note's first line), where the vault renders it.
 */
export const lineAddedShape = {
  level: z.enum(['L1', 'L2']),
  /** The query whose L1 note it was written in; null for the L2 index. */
  query_id: z.string().min(1).nullable(),
  after: sha256Field.nullable(),
  /** Its content sha: the line's identity, as for a memory's lines. */
  sha256: sha256Field,
  text: z
    .string()
    .trim()
    .min(1, 'expected the added text')
    .regex(/^[^\n\r]*$/, 'expected one line of text'),
  reason: reasonField,
};
