import { z } from 'zod';
import { itemIdField } from '../items/model.js';
import { sha256Field } from './fields.js';

/*
 * The review queue (issue 12 §4, seed 004): what the store notices and will not decide itself.
 * A finding and each decision on it are events, so the queue is rebuilt from the log like
 * everything else. The explanation says which rule fired and on what, never the text of a
 * forgotten line: findings name lines by sha.
 */

/** What a detector noticed. */
export const reviewKindField = z.enum([
  'resurfacing',
  'contradiction',
  'duplicate',
  'stale_grounding',
  // Knowledge whose every anchor is deleted: loaded by no T0 and no thread's T1 (stop 31).
  'orphaned_knowledge',
]);

/** What a person decided about a finding. */
export const reviewDecisionField = z.enum(['keep', 'dismiss', 'supersede']);

export const reviewOpenedShape = {
  /** Deterministic: the sha256 of the kind and the sorted subjects (review-id.ts), so a rescan finds it again. */
  id: sha256Field,
  kind: reviewKindField,
  /**
   * What the finding is about, sorted: line shas (and, for resurfacing, the overridden
   * tombstone), or item ids (orphaned knowledge: the knowledge and its deleted anchors).
   */
  subjects: z
    .array(z.union([sha256Field, itemIdField]))
    .min(1, 'expected at least one subject sha or item id'),
  explanation: z.string().trim().min(1, 'expected an explanation: which rule fired, on what'),
};

export const reviewDecidedShape = {
  id: sha256Field,
  decision: reviewDecisionField,
  reason: z.string().trim().min(1, 'expected a non-empty reason'),
};
