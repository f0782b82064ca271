import { MemError } from '@mem/core';

/** Per-credential limits; 0 turns a limit off. Defaults are seed 001's. */
export interface RateLimits {
  /** Requests per second, any route (the burst allowance). Default 10. */
  burstPerSecond: number;
  /** Ingest jobs per hour. Default 100. */
  ingestPerHour: number;
  /** Queries per hour. Default 1000. */
  queryPerHour: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  burstPerSecond: 10,
  ingestPerHour: 100,
  queryPerHour: 1000,
};

/**
 * "At most `limit` requests in any window of `windowMs`", per key: the times of the last
 * `limit` requests, kept in a ring. Exact rather than a token bucket's approximation, so the
 * 11th request within a second is refused whenever it comes. Memory: `limit` numbers per key.
 */
export class SlidingWindow {
  private readonly rings = new Map<string, { times: number[]; next: number }>();
  private hits = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Records a request; 0 when allowed, else the milliseconds until one would be (nothing recorded). */
  hit(key: string, now: number): number {
    if (this.limit <= 0) return 0;
    if (++this.hits % 10_000 === 0) this.sweep(now);
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { times: [], next: 0 };
      this.rings.set(key, ring);
    }
    if (ring.times.length < this.limit) {
      ring.times.push(now);
      return 0;
    }
    const oldest = ring.times[ring.next]!;
    if (now - oldest < this.windowMs) return oldest + this.windowMs - now;
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % this.limit;
    return 0;
  }

  /** Forgets keys whose newest request has left the window. */
  private sweep(now: number): void {
    for (const [key, ring] of this.rings) {
      const newest = ring.times[(ring.next + ring.times.length - 1) % ring.times.length] ?? 0;
      if (now - newest >= this.windowMs) this.rings.delete(key);
    }
  }
}

/** The limits of one server: burst on every authenticated request, hourly ones on ingest and query. */
export class RateLimiter {
  private readonly burst: SlidingWindow;
  private readonly perOperation: ReadonlyMap<string, SlidingWindow>;

  constructor(
    limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = new SlidingWindow(limits.burstPerSecond, 1000);
    this.perOperation = new Map([
      ['ingest_submit', new SlidingWindow(limits.ingestPerHour, 3_600_000)],
      ['query', new SlidingWindow(limits.queryPerHour, 3_600_000)],
    ]);
  }

  /** Counts a request of `key` (a token id, or an address for failed authentication); RATE_LIMITED when over. */
  check(key: string, operation: string | null): void {
    const now = this.now();
    let wait = this.burst.hit(key, now);
    const hourly = operation !== null ? this.perOperation.get(operation) : undefined;
    if (wait === 0 && hourly) wait = hourly.hit(key, now);
    if (wait > 0) {
      const retryAfter = Math.max(1, Math.ceil(wait / 1000));
      throw new MemError('RATE_LIMITED', `rate limit exceeded; retry in ${retryAfter}s`, {
        retry_after_s: retryAfter,
      });
    }
  }
}
