import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 13 §4: recall never delivers a stale or expired item silently. The clock is frozen
 * (MEM_NOW), so the verdict reads the same on any day; the log is written at the real time.
 */
let root: string;

const FROZEN = { MEM_NOW: '2031-01-01T00:00:00Z' };
const mem = (args: string[], env: Record<string, string> = FROZEN) =>
  memInProcess(['--root', root, ...args], { env });
const json = (run: { stdout: string }) => JSON.parse(run.stdout) as Record<string, unknown>;

async function remember(summary: string, ...flags: string[]): Promise<string> {
  const run = await mem([
    'remember',
    summary,
    '--type',
    'fact',
    '--project',
    'demo',
    ...flags,
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return (json(run)['ids'] as string[])[0]!;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-fresh-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('freshness warnings on find_items', () => {
  it('holds an item past its valid_until back with a warning, and delivers it with --include-stale', async () => {
    const expired = await remember(
      'The staging cluster runs Postgres 14',
      '--valid-until',
      '2030-06-01T00:00:00Z',
    );
    const lasting = await remember(
      'The staging cluster runs in eu-west-1',
      '--valid-until',
      '2032-01-01T00:00:00Z',
    );

    const held = json(
      await mem(['items', 'find', '--project', 'demo', '--query', 'staging', '--json']),
    );
    expect((held['items'] as { id: string }[]).map((i) => i.id)).toEqual([lasting]);
    expect(held['total']).toBe(1);
    expect(held['freshness_warnings']).toEqual([
      {
        id: expired,
        project: 'demo',
        state: 'expired',
        reason: 'expired',
        label: 'expired',
        delivered: false,
        next_action: 'retire',
        hint: `mem items attention ${expired} archive --project demo, or mem items update ${expired} --project demo --valid-until ISO --reason TEXT`,
        valid_until: '2030-06-01T00:00:00Z',
        review_after: null,
        open_days: 0,
        open_marker: null,
      },
    ]);

    const included = json(
      await mem([
        'items',
        'find',
        '--project',
        'demo',
        '--query',
        'staging',
        '--include-stale',
        '--json',
      ]),
    );
    expect((included['items'] as { id: string }[]).map((i) => i.id)).toEqual([expired, lasting]);
    expect(included['freshness_warnings']).toEqual([
      expect.objectContaining({ id: expired, state: 'expired', delivered: true }),
    ]);
  });

  it('reads the verdict off the clock it is given: before valid_until there is nothing to warn about', async () => {
    const id = await remember(
      'The staging cluster runs Postgres 14',
      '--valid-until',
      '2030-06-01T00:00:00Z',
    );
    const earlier = json(
      await mem(['items', 'find', '--project', 'demo', '--json'], {
        MEM_NOW: '2030-05-31T23:59:59Z',
      }),
    );
    expect((earlier['items'] as { id: string }[]).map((i) => i.id)).toEqual([id]);
    expect(earlier['freshness_warnings']).toEqual([]);
  });

  it('prints the warning in the text output too', async () => {
    const id = await remember(
      'The staging cluster runs Postgres 14',
      '--valid-until',
      '2030-06-01T00:00:00Z',
    );
    const run = await mem(['items', 'find', '--project', 'demo']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`held back ${id}: expired (expired; next: retire — `);
  });

  it('refuses a MEM_NOW that is not an ISO timestamp as CONFIG_INVALID, naming it', async () => {
    const run = await mem(['items', 'find', '--project', 'demo', '--json'], {
      MEM_NOW: 'tomorrow',
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('CONFIG_INVALID');
    expect(run.stderr).toContain('MEM_NOW');
  });
});

describe('orient on the recall clock', () => {
  it('reads MEM_NOW as its now and its reminder window, as freshness does; --now still wins', async () => {
    const run = await mem([
      'remember',
      'Renew the staging certificate',
      '--type',
      'reminder',
      '--project',
      'demo',
      '--remind-at',
      '2031-01-10T00:00:00Z',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [id] = json(run)['ids'] as string[];
    const frozen = json(await mem(['orient', '--project', 'demo', '--json']));
    expect(frozen['now']).toBe('2031-01-01T00:00:00.000Z');
    expect(frozen['reminders']).toMatchObject({ total: 1, items: [{ id }] });
    const named = json(
      await mem(['orient', '--project', 'demo', '--now', '2030-01-01T00:00:00Z', '--json']),
    );
    expect(named['now']).toBe('2030-01-01T00:00:00.000Z');
    expect(named['reminders']).toMatchObject({ total: 0 });
  });
});

describe('freshness warnings on open (T1)', () => {
  it('names an expired and a stale anchored fact, delivered, with the reason and next action', async () => {
    const run = await mem([
      'remember',
      'Theme loader rework',
      '--type',
      'thread',
      '--project',
      'demo',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [thread] = json(run)['ids'] as string[];
    const expired = await remember(
      'The loader runs on Node 18',
      '--anchor',
      thread!,
      '--valid-until',
      '2030-06-01T00:00:00Z',
    );
    const stale = await remember(
      'Themes are cached per user',
      '--anchor',
      thread!,
      '--review-after',
      '2030-07-01T00:00:00Z',
    );
    const fresh = await remember('Themes live in themes/', '--anchor', thread!);

    const opened = json(await mem(['items', 'open', thread!, '--json']));
    const listed = (opened['facts'] as { id: string }[]).map((f) => f.id);
    expect([...listed].sort()).toEqual([expired, stale, fresh].sort());
    // In the order the facts are listed.
    const expected: Record<string, unknown> = {
      [expired]: {
        id: expired,
        project: 'demo',
        state: 'expired',
        reason: 'expired',
        label: 'expired',
        delivered: true,
        next_action: 'retire',
        hint: `mem items attention ${expired} archive --project demo, or mem items update ${expired} --project demo --valid-until ISO --reason TEXT`,
        valid_until: '2030-06-01T00:00:00Z',
        review_after: null,
        open_days: 0,
        open_marker: null,
      },
      [stale]: expect.objectContaining({
        id: stale,
        state: 'stale',
        reason: 'review_due',
        delivered: true,
        next_action: 'confirm',
        review_after: '2030-07-01T00:00:00Z',
      }),
    };
    expect(opened['freshness_warnings']).toEqual(
      listed.filter((id) => id !== fresh).map((id) => expected[id]),
    );
    const text = await mem(['items', 'open', thread!]);
    // The reason and the command that settles it (stop 32: the next action alone named neither).
    expect(text.stdout).toContain(
      `delivered ${expired}: expired (expired; next: retire — mem items attention ${expired} archive --project demo`,
    );
    expect(text.stdout).toContain(`delivered ${stale}:`);

    const before = json(
      await mem(['items', 'open', thread!, '--json'], { MEM_NOW: '2030-05-01T00:00:00Z' }),
    );
    expect(before['freshness_warnings']).toEqual([]);
  });
});
