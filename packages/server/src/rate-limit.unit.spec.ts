import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { RateLimiter, SlidingWindow } from './rate-limit.js';

describe('SlidingWindow', () => {
  it('allows `limit` requests in any window and says how long until the next', () => {
    const window = new SlidingWindow(10, 1000);
    for (let i = 0; i < 10; i++) expect(window.hit('k', 100 + i)).toBe(0);
    expect(window.hit('k', 500)).toBe(600);
    expect(window.hit('other', 500)).toBe(0);
    expect(window.hit('k', 1100)).toBe(0);
    expect(window.hit('k', 1101)).toBe(0);
    expect(window.hit('k', 1101)).toBe(1); // 102..109, 1100, 1101: ten within [102, 1102)
  });

  it('a limit of 0 is off', () => {
    const window = new SlidingWindow(0, 1000);
    for (let i = 0; i < 100; i++) expect(window.hit('k', 0)).toBe(0);
  });
});

describe('RateLimiter', () => {
  it('refuses the 11th request within a second with retry_after_s, and counts queries per hour', () => {
    let now = 0;
    const limiter = new RateLimiter(
      { burstPerSecond: 10, ingestPerHour: 100, queryPerHour: 3 },
      () => now,
    );
    for (let i = 0; i < 10; i++) limiter.check('token:a', null);
    let error: unknown;
    try {
      limiter.check('token:a', null);
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, 'RATE_LIMITED')).toBe(true);
    expect((error as { details: { retry_after_s: number } }).details.retry_after_s).toBe(1);
    now = 5000;
    for (let i = 0; i < 3; i++) limiter.check('token:b', 'query');
    expect(() => limiter.check('token:b', 'query')).toThrow(/rate limit/);
    expect(() => limiter.check('token:b', 'project_list')).not.toThrow();
  });
});
