import { describe, expect, it } from 'vitest';
import { orientText } from './orient-ops.js';
import type { Orientation } from './orient.js';

const section = (items: { id: string; summary: string }[], bytes: number, cap: number) => ({
  items,
  bytes,
  cap,
});

/** An orientation with only what the text reads: no threads, reminders, review or warnings. */
const orientation = (rules: ReturnType<typeof section>, facts: ReturnType<typeof section>) =>
  ({
    rules,
    facts,
    threads: { items: [], total: 0, omitted: 0 },
    reminders: { items: [], total: 0, omitted: 0 },
    window_days: 14,
    now: '2026-03-01T00:00:00Z',
    projects: { items: [{ project: 'demo', items: 1 }] },
    tags: { items: [], omitted: 0 },
    review: [],
    freshness_warnings: [],
  }) as unknown as Orientation;

describe('orient text (stop-32 walk: an empty section read "2/4096 bytes")', () => {
  it('says "empty" with the cap for a section without items, and counts bytes for one with', () => {
    const text = orientText(
      orientation(
        section([], 2, 4096),
        section([{ id: 'it-0123456789ab', summary: 'x' }], 40, 8192),
      ),
    ).split('\n');
    expect(text[0]).toBe('rules: empty (cap 4096 bytes)');
    expect(text[1]).toBe('facts (1, 40/8192 bytes):');
    expect(text.join('\n')).not.toContain('2/4096');
  });
});
