import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withKeyedMutex } from './mutex.js';

// Each task holds the mutex across a timer, so a second task could overlap it if the mutex let it.
// Fake timers: the test advances the clock instead of sleeping.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('withKeyedMutex', () => {
  it('runs calls with one key one at a time, in call order, even when one fails', async () => {
    const trace: string[] = [];
    let inside = 0;
    const task = (name: string, fail = false) =>
      withKeyedMutex('k', async () => {
        inside += 1;
        expect(inside).toBe(1);
        trace.push(`start ${name}`);
        await pause(5);
        trace.push(`end ${name}`);
        inside -= 1;
        if (fail) throw new Error(name);
        return name;
      });
    const settled = Promise.allSettled([task('a'), task('b', true), task('c')]);
    await vi.runAllTimersAsync();
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(trace).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets different keys run side by side', async () => {
    const trace: string[] = [];
    const both = Promise.all(
      ['x', 'y'].map((key) =>
        withKeyedMutex(key, async () => {
          trace.push(`start ${key}`);
          await pause(5);
          trace.push(`end ${key}`);
        }),
      ),
    );
    await vi.runAllTimersAsync();
    await both;
    expect(trace.slice(0, 2).sort()).toEqual(['start x', 'start y']);
  });
});
