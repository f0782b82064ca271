/**
 * Runs async work one at a time per key, in call order. Why: a check-then-append (is this
 * name taken? was this ingest_id accepted?) must not interleave with another one in this
 * process. Across processes, the projectors' first-event-wins rules keep a race harmless.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
