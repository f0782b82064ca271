import { describe, expect, it } from 'vitest';
import { orientText } from './orient-ops.js';
import type { Orientation } from './orient.js';

const section = (items: { id: string; summary: string }[], bytes: number, cap: number) => ({
  items,
  bytes,
  cap,
});

type Threads = { items: Record<string, unknown>[]; total: number; omitted: number };

/** An orientation with only what the text reads: no reminders, review or warnings. */
const orientation = (
  rules: ReturnType<typeof section>,
  facts: ReturnType<typeof section>,
  threads: Threads = { items: [], total: 0, omitted: 0 },
) =>
  ({
    rules,
    facts,
    threads,
    reminders: { items: [], total: 0, omitted: 0 },
    window_days: 14,
    now: '2026-03-01T00:00:00Z',
    projects: { items: [{ project: 'demo', items: 1 }] },
    tags: { items: [], omitted: 0 },
    review: { items: [], total: 0, omitted: 0 },
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

describe('orient text (stop-33 walk: the JSON said "open · N days unresolved", the text did not)', () => {
  it("prints each thread's open marker after its summary, and nothing for one without", () => {
    const thread = {
      id: 'it-0123456789ab',
      project: 'demo',
      type: 'thread',
      summary: 'Theme loader rework',
      last_activity: '2026-02-20T00:00:00Z',
      status: 'open',
      open_count: 1,
    };
    const text = orientText(
      orientation(section([], 2, 4096), section([], 2, 8192), {
        items: [
          { ...thread, open_marker: 'open · 9 days unresolved' },
          { ...thread, id: 'it-ba9876543210', status: 'done', open_count: 0 },
        ],
        total: 2,
        omitted: 0,
      }),
    ).split('\n');
    expect(text).toContain(
      '  it-0123456789ab thread [open, 1 open] Theme loader rework · open · 9 days unresolved',
    );
    expect(text).toContain('  it-ba9876543210 thread [done, 0 open] Theme loader rework');
  });
});
