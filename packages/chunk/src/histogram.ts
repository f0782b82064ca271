/** One bucket of a token histogram: sizes in [from, to]. */
export interface HistogramBucket {
  from: number;
  to: number;
  count: number;
}

/** Distribution of chunk sizes, for `mem ingest --dry-run`. */
export interface TokenHistogram {
  buckets: HistogramBucket[];
  /** Sizes above `maxTokens` (none for chunks; memories or other inputs may have some). */
  over: number;
  count: number;
  totalTokens: number;
  min: number;
  max: number;
  mean: number;
}

/**
 * Buckets token counts into `bucketCount` ranges of width ceil(maxTokens / bucketCount),
 * the last one closed at maxTokens (5000 / 10: 0-499, 500-999, …, 4500-5000). Deterministic;
 * every bucket is listed, empty ones included.
 */
export function tokenHistogram(
  sizes: Iterable<number>,
  maxTokens: number,
  bucketCount = 10,
): TokenHistogram {
  const width = Math.max(1, Math.ceil(maxTokens / bucketCount));
  const buckets: HistogramBucket[] = [];
  for (let from = 0; from <= maxTokens && buckets.length < bucketCount; from += width)
    buckets.push({ from, to: from + width - 1, count: 0 });
  (buckets.at(-1) as HistogramBucket).to = maxTokens;
  let over = 0;
  let count = 0;
  let totalTokens = 0;
  let min = Infinity;
  let max = 0;
  for (const size of sizes) {
    count += 1;
    totalTokens += size;
    min = Math.min(min, size);
    max = Math.max(max, size);
    if (size > maxTokens) over += 1;
    else
      (buckets[Math.min(Math.floor(size / width), buckets.length - 1)] as HistogramBucket).count +=
        1;
  }
  return {
    buckets,
    over,
    count,
    totalTokens,
    min: count === 0 ? 0 : min,
    max,
    mean: count === 0 ? 0 : Math.round(totalTokens / count),
  };
}
