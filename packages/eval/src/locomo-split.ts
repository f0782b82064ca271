import { MemError } from '@mem/core';
import type { LocomoConversation } from './locomo.js';

/** The halves of LoCoMo a gate change is tuned on and reported on. */
export const LOCOMO_SPLITS = ['tuning', 'held-out'] as const;
export type LocomoSplit = (typeof LOCOMO_SPLITS)[number];

/**
 * LoCoMo's conversations split in two by conversation id: sorted by sample id, the first half
 * (rounded up) is the tuning half and the rest the held-out half. By conversation, not by
 * question: the questions of one conversation share its sessions, so a rule tuned on some of
 * them has seen the others' evidence. The order of the file is kept within each half, so the
 * historical "first 200 questions" figure (conv-26 and the start of conv-30) lies in tuning.
 */
export function locomoSplit(
  conversations: readonly LocomoConversation[],
  split: LocomoSplit | 'all',
): LocomoConversation[] {
  if (split === 'all') return [...conversations];
  if (!(LOCOMO_SPLITS as readonly string[]).includes(split))
    throw new MemError(
      'INVALID_INPUT',
      `LoCoMo split: expected one of ${LOCOMO_SPLITS.join(', ')}, all; got ${JSON.stringify(split)}`,
      { split },
    );
  const ids = conversations.map((c) => c.sampleId).sort();
  const tuning = new Set(ids.slice(0, Math.ceil(ids.length / 2)));
  return conversations.filter((c) => tuning.has(c.sampleId) === (split === 'tuning'));
}
