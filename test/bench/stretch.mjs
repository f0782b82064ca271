// The engine hands a projector contiguous stretches of a project's log ({ events, after,
// through }, engine/src/projector.ts); a bench that drives a projector directly builds them
// the same way, one batch after another.
export class Stretches {
  /** The position the previous stretch ended at (null before the first). */
  after = null;

  /** The stretch for `batch` ({ event, hash } in seq order), following the previous one. */
  next(batch) {
    const last = batch[batch.length - 1];
    const through = { seq: last.event.seq, head: last.hash };
    const stretch = { events: batch, after: this.after, through };
    this.after = through;
    return stretch;
  }
}
