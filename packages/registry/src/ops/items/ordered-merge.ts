/**
 * The rows of several sorted sources as one sorted stream, read lazily: each source is asked
 * for its next row only when its last one was taken. A reader that stops at a cap (orient's
 * threads, one index range per project) reads the rows it took plus one per source.
 */
export function* orderedMerge<T>(
  sources: readonly Iterable<T>[],
  compare: (a: T, b: T) => number,
): Generator<T> {
  const heads: { row: T; rest: Iterator<T> }[] = [];
  try {
    for (const source of sources) {
      const rest = source[Symbol.iterator]();
      const first = rest.next();
      if (first.done) continue;
      heads.push({ row: first.value, rest });
    }
    while (heads.length > 0) {
      let best = 0;
      for (let i = 1; i < heads.length; i++)
        if (compare(heads[i]!.row, heads[best]!.row) < 0) best = i;
      const head = heads[best]!;
      yield head.row;
      const next = head.rest.next();
      if (next.done) heads.splice(best, 1);
      else head.row = next.value;
    }
  } finally {
    // A reader that stopped early returns every source it left open (a statement's iterator).
    for (const { rest } of heads) rest.return?.();
  }
}

/**
 * `rows` with each run of rows that `same` holds equal put in `compare`'s order: a source
 * sorted on a key (binary, in SQL) whose ties another order breaks (locale, in JS).
 */
export function* tiesSorted<T>(
  rows: Iterable<T>,
  same: (a: T, b: T) => boolean,
  compare: (a: T, b: T) => number,
): Generator<T> {
  let run: T[] = [];
  for (const row of rows) {
    if (run.length > 0 && !same(run[0]!, row)) {
      yield* run.sort(compare);
      run = [];
    }
    run.push(row);
  }
  yield* run.sort(compare);
}
