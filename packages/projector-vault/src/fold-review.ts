import type { EventOf } from '@mem/core';
import type { VaultFold } from './fold-state.js';

/** Review events only change `_review.md`: an opened finding joins the open ones, a decided one leaves. */
export function applyReview(
  fold: VaultFold,
  event: EventOf<'review_opened' | 'review_decided'>,
): { touched: [{ kind: 'review' }] } {
  if (event.type === 'review_opened') {
    if (!fold.reviews.has(event.id))
      fold.reviews.set(event.id, {
        kind: event.kind,
        subjects: event.subjects,
        explanation: event.explanation,
        seq: event.seq,
      });
  } else fold.reviews.delete(event.id);
  return { touched: [{ kind: 'review' }] };
}
