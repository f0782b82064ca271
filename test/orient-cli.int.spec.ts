import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonlFile, logBytes } from './support/data-root.js';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 13 §3 and the orient/open operations of §2, through the CLI on a real data root:
 * T0's sections and their order, its byte budget, the stable rules+facts prefix, the caps that
 * refuse a write, and T1.
 */
let root: string;
let env: Record<string, string> = {};

const mem = (...args: string[]) => memInProcess(['--root', root, ...args], { env });
const json = (run: { stdout: string; stderr: string; code: number | null }) => {
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<string, any>;
};

async function remember(text: string, type: string, ...flags: string[]): Promise<string> {
  const run = await mem('remember', text, '--type', type, '--project', 'demo', ...flags, '--json');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { ids: string[] }).ids[0]!;
}

/** One `mem items add --file` batch (one process, one append): the ids in input order. */
async function add(...items: Record<string, unknown>[]): Promise<string[]> {
  const file = jsonlFile(root, items);
  const run = await mem('items', 'add', '--project', 'demo', '--file', file, '--json');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { ids: string[] }).ids;
}

const NOW = '2026-03-01T12:00:00.000Z';
/** The machine is shared and every command is a whole CLI run: generous, not a latency claim. */
const SLOW = 300_000;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-orient-'));
  env = {};
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem orient (T0)', () => {
  it(
    'lists unanchored rules and facts oldest first, threads by activity, reminders due within 14 days of --now, and tags',
    async () => {
      const [rule, fact1, older, newer] = await add(
        { type: 'rule', summary: 'Run the tests with npm test' },
        { type: 'fact', summary: 'The theme loader caches parsed themes', tags: ['themes'] },
        { type: 'thread', summary: 'Theme loader rework', tags: ['themes'] },
        { type: 'thread', summary: 'Release 2.0' },
      );
      // Work under the older thread makes it the most recently active one.
      const [, fact2, , soon] = await add(
        { type: 'fact', summary: 'Anchored: the loader reads YAML', anchors: [older] },
        { type: 'fact', summary: 'CI runs on Node 20', tags: ['ci', 'themes'] },
        { type: 'task', summary: 'Port the loader to ESM', parent: older },
        { type: 'reminder', summary: 'Renew the cert', remind_at: '2026-03-14T00:00:00Z' },
        { type: 'reminder', summary: 'Plan Q3', remind_at: '2026-03-20T00:00:00Z' },
      );

      const out = json(await mem('orient', '--now', NOW, '--json'));
      expect(out['rules'].items.map((r: { id: string }) => r.id)).toEqual([rule]);
      expect(out['facts'].items.map((f: { id: string }) => f.id)).toEqual([fact1, fact2]);
      expect(out['threads']).toMatchObject({ total: 2, omitted: 0 });
      expect(out['threads'].items).toMatchObject([
        { id: older, type: 'thread', status: 'open', open_count: 1 },
        { id: newer, open_count: 0 },
      ]);
      expect(out['reminders']).toMatchObject({ total: 1, items: [{ id: soon }] });
      expect(out['tags'].items).toEqual([
        { tag: 'themes', count: 3 },
        { tag: 'ci', count: 1 },
      ]);
      expect(out['projects'].items).toEqual([{ project: 'demo', items: 9 }]);
      // The window moves with the caller's clock, not the server's.
      const later = json(await mem('orient', '--now', '2026-03-10T00:00:00.000Z', '--json'));
      expect(later['reminders']).toMatchObject({ total: 2 });
    },
    SLOW,
  );

  it(
    'truncates threads to their byte cap with an exact count, every section within its cap',
    async () => {
      env = { MEM_ORIENT_BUDGET: 'threads=600' };
      await add(
        ...Array.from({ length: 8 }, (_, i) => ({
          type: 'thread',
          summary: `スレッド ${i} のテーマ移行 🧵`,
        })),
      );
      const out = json(await mem('orient', '--now', NOW, '--json'));
      expect(out['threads'].total).toBe(8);
      expect(out['threads'].items.length).toBeGreaterThan(0);
      expect(out['threads'].items.length + out['threads'].omitted).toBe(8);
      expect(out['threads'].omitted).toBeGreaterThan(0);
      for (const section of ['rules', 'facts', 'threads', 'reminders', 'projects', 'tags']) {
        const s = out[section];
        expect(Buffer.byteLength(JSON.stringify(s.items), 'utf8')).toBe(s.bytes);
        expect(s.bytes).toBeLessThanOrEqual(s.cap);
      }
    },
    SLOW,
  );

  it(
    'is byte-identical across calls, and its rules+facts prefix holds while their membership does',
    async () => {
      await add(
        { type: 'rule', summary: 'Run the tests with npm test' },
        { type: 'fact', summary: 'テーマは YAML で書く' },
      );
      // Two runs of the built bin: byte-identical across processes (orient's real-process case).
      const a = memProcess(['--root', root, 'orient', '--now', NOW, '--json']);
      const b = memProcess(['--root', root, 'orient', '--now', NOW, '--json']);
      expect(a.code).toBe(0);
      expect(a.stdout).toBe(b.stdout);

      const prefix = (stdout: string) => stdout.slice(0, stdout.indexOf('"threads"'));
      const [thread] = await add({ type: 'thread', summary: 'Theme loader rework' });
      await add(
        { type: 'fact', summary: 'Anchored knowledge is not always loaded', anchors: [thread] },
        { type: 'task', summary: 'Port the loader', parent: thread },
        { type: 'reminder', summary: 'Renew the cert', remind_at: '2026-03-02T00:00:00Z' },
      );
      // The rest in process: the prefix is about the output, not about processes.
      const c = await mem('orient', '--now', '2026-03-05T00:00:00.000Z', '--json');
      expect(c.stdout).not.toBe(a.stdout);
      expect(prefix(c.stdout).length).toBeGreaterThan(100);
      expect(prefix(c.stdout)).toBe(prefix(a.stdout));

      await add({ type: 'fact', summary: 'A new always-loaded fact' });
      const d = await mem('orient', '--now', NOW, '--json');
      expect(prefix(d.stdout)).not.toBe(prefix(a.stdout));
    },
    SLOW,
  );

  it(
    'leaves archived items out of T0 and marks each thread open · N days unresolved from --now',
    async () => {
      const due = new Date(Date.now() + 5 * 86_400_000).toISOString();
      const [rule, archivedRule, fact, archivedFact, thread, archivedThread, reminder, archived] =
        await add(
          { type: 'rule', summary: 'Run the tests with npm test' },
          { type: 'rule', summary: 'Use yarn (retired)' },
          { type: 'fact', summary: 'CI runs on Node 20' },
          { type: 'fact', summary: 'CI ran on Node 16' },
          { type: 'thread', summary: 'Theme loader rework' },
          { type: 'thread', summary: 'The old migration' },
          { type: 'reminder', summary: 'Renew the cert', remind_at: due },
          { type: 'reminder', summary: 'Renew the old cert', remind_at: due },
        );
      for (const id of [archivedRule, archivedFact, archivedThread, archived]) {
        const filed = await mem('items', 'attention', id!, 'archive', '--project', 'demo');
        expect(filed.code).toBe(0);
      }
      const [opened] = json(await mem('items', 'read', thread!, '--json'))['items'];
      const at = (days: number) =>
        new Date(Date.parse(opened.created_ts) + days * 86_400_000 + 3_600_000).toISOString();

      const a = memProcess(['--root', root, 'orient', '--now', at(3), '--json']);
      const b = memProcess(['--root', root, 'orient', '--now', at(3), '--json']);
      expect(a.code).toBe(0);
      expect(a.stdout).toBe(b.stdout);
      const out = json(a);
      const ids = (section: string) => out[section].items.map((i: { id: string }) => i.id);
      expect(ids('rules')).toEqual([rule]);
      expect(ids('facts')).toEqual([fact]);
      expect(ids('reminders')).toEqual([reminder]);
      expect(out['reminders']).toMatchObject({ total: 1, omitted: 0 });
      expect(out['threads']).toMatchObject({
        total: 1,
        omitted: 0,
        items: [{ id: thread, open_marker: 'open · 3 days unresolved' }],
      });

      // Another clock moves the marker, never the rules+facts prefix.
      const later = await mem('orient', '--now', at(10), '--json');
      expect(json(later)['threads'].items[0].open_marker).toBe('open · 10 days unresolved');
      const prefix = (stdout: string) => stdout.slice(0, stdout.indexOf('"threads"'));
      expect(prefix(later.stdout)).toBe(prefix(a.stdout));
    },
    SLOW,
  );
});

describe('mem orient at a clock before a thread was opened', () => {
  it(
    'lists the thread (orient reads the store as it is) and marks it not open yet, never open · 0 days',
    async () => {
      const [thread] = await add({ type: 'thread', summary: 'Theme loader rework' });
      const [read] = json(await mem('items', 'read', thread!, '--json'))['items'];
      const before = new Date(Date.parse(read.created_ts) - 2 * 86_400_000).toISOString();
      const marker = `not open yet at this clock (opened ${read.created_ts})`;

      const out = json(await mem('orient', '--now', before, '--json'));
      expect(out['threads']).toMatchObject({
        total: 1,
        items: [{ id: thread, open_marker: marker }],
      });
      const text = await mem('orient', '--now', before);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(
        `${thread} thread [open, 0 open] Theme loader rework · ${marker}`,
      );
      expect(text.stdout).not.toContain('days unresolved');
      // The item's own verdicts agree: open shows the same marker, find the same at the clock.
      const opened = json(
        await memInProcess(['--root', root, 'items', 'open', thread!, '--json'], {
          env: { MEM_NOW: before },
        }),
      );
      expect(opened['freshness']).toMatchObject({
        state: 'fresh',
        open_days: 0,
        open_marker: marker,
      });
    },
    SLOW,
  );
});

describe('the always-loaded budget at write', () => {
  it(
    'refuses an unanchored fact over the cap with the cap, size, count and candidates, writing nothing; anchoring is the way out',
    async () => {
      env = { MEM_ORIENT_BUDGET: 'facts=300' };
      const first = await remember('事実その一：テーマはキャッシュされる', 'fact');
      await remember('Fact two: CI runs on Node 20', 'fact');
      await remember('Fact three: the vault is rebuilt from the log', 'fact');
      const before = logBytes(root, 'demo');
      const refused = await mem(
        'remember',
        'Fact four: one too many',
        '--type',
        'fact',
        '--project',
        'demo',
        '--json',
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('BUDGET_EXCEEDED');
      expect(refused.stderr).toContain('300');
      expect(refused.stderr).toContain(first);
      expect(refused.stderr).toContain('Anchor it');
      expect(logBytes(root, 'demo')).toBe(before);

      const thread = await remember('Theme loader rework', 'thread');
      await remember('Fact four: one too many', 'fact', '--anchor', thread);
      const out = json(await mem('orient', '--now', NOW, '--json'));
      expect(out['facts'].items).toHaveLength(3);
      expect(out['facts'].bytes).toBeLessThanOrEqual(300);

      const grown = logBytes(root, 'demo');
      const update = await mem(
        'items',
        'update',
        first,
        '--project',
        'demo',
        '--summary',
        `${'長い'.repeat(60)}`,
        '--reason',
        'longer',
        '--json',
      );
      expect(update.code).not.toBe(0);
      expect(update.stderr).toContain('BUDGET_EXCEEDED');
      expect(logBytes(root, 'demo')).toBe(grown);
    },
    SLOW,
  );
});

describe('archiving frees always-loaded room, as orient shows it', () => {
  it(
    'the refusal names real commands; archiving a candidate frees its room; filing it back over the cap is refused',
    async () => {
      env = { MEM_ORIENT_BUDGET: 'facts=300' };
      const first = await remember('事実その一：テーマはキャッシュされる', 'fact');
      await remember('Fact two: CI runs on Node 20', 'fact');
      await remember('Fact three: the vault is rebuilt from the log', 'fact');
      const refused = await mem(
        'remember',
        'Fact four: one too many',
        '--type',
        'fact',
        '--project',
        'demo',
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('BUDGET_EXCEEDED');
      // Operations that exist, as commands, never a "retire" no command performs.
      expect(refused.stderr).toContain(`mem items attention ${first} archive --project demo`);
      expect(refused.stderr).toContain('mem items relate');
      expect(refused.stderr).not.toMatch(/\bretire\b/);
      // The shorten command runs as printed once its capitals are filled in (stop 32: it
      // lacked the --reason update requires); the same text keeps the section's bytes.
      const shorten = /mem items update (\S+) --summary TEXT --reason TEXT --project demo/.exec(
        refused.stderr,
      );
      expect(shorten?.[1]).toBe(first);
      const same = ['--summary', '事実その一：テーマはキャッシュされる', '--reason', 'same'];
      const shortened = await mem('items', 'update', first, ...same, '--project', 'demo');
      expect(shortened.code, shortened.stderr).toBe(0);

      const archived = await mem('items', 'attention', first, 'archive', '--project', 'demo');
      expect(archived.code, archived.stderr).toBe(0);
      // Orient no longer loads it, and the write budget agrees: the refused fact now fits.
      expect(json(await mem('orient', '--now', NOW, '--json'))['facts'].items).toHaveLength(2);
      const fourth = await remember('Fact four: one too many', 'fact');
      const orientation = json(await mem('orient', '--now', NOW, '--json'));
      expect(orientation['facts'].items.map((i: { id: string }) => i.id)).toContain(fourth);
      expect(orientation['facts'].bytes).toBeLessThanOrEqual(300);

      // Filing it back into T0 is a write that grows the section: refused, nothing written.
      const before = logBytes(root, 'demo');
      const back = await mem('items', 'attention', first, 'active', '--project', 'demo');
      expect(back.code).not.toBe(0);
      expect(back.stderr).toContain('BUDGET_EXCEEDED');
      expect(logBytes(root, 'demo')).toBe(before);
    },
    SLOW,
  );
});

describe('mem items open (T1)', () => {
  it(
    'returns the thread, its open children most recent first with an exact overflow count, anchored rules then facts, links as refs',
    async () => {
      const [thread, other] = await add(
        { type: 'thread', summary: 'Theme loader rework' },
        { type: 'thread', summary: 'Release 2.0' },
      );
      const [fact, rule, c1, c2, c3, done] = await add(
        { type: 'fact', summary: 'The loader caches parsed themes', anchors: [thread] },
        { type: 'rule', summary: 'Never edit generated themes', anchors: [thread] },
        { type: 'task', summary: 'Port to ESM', parent: thread },
        { type: 'task', summary: 'Drop the YAML parser', parent: thread },
        { type: 'task', summary: 'Write the migration note', parent: thread },
        { type: 'task', summary: 'Measure the cold start', parent: thread },
      );
      expect(
        (await mem('items', 'resolve', done!, '--project', 'demo', '--status', 'done')).code,
      ).toBe(0);
      expect(
        (
          await mem(
            'items',
            'relate',
            thread!,
            '--project',
            'demo',
            '--relation',
            'link',
            '--target',
            other!,
          )
        ).code,
      ).toBe(0);

      const out = json(await mem('items', 'open', thread!, '--limit', '2', '--json'));
      expect(out['item']).toMatchObject({ id: thread, type: 'thread', status: 'open' });
      expect(out['children']).toMatchObject({ total: 3, omitted: 1 });
      expect(out['children'].items.map((c: { id: string }) => c.id)).toEqual([c3, c2]);
      expect(out['rules']).toMatchObject([{ id: rule, type: 'rule' }]);
      expect(out['facts']).toMatchObject([{ id: fact, type: 'fact' }]);
      expect(out['links']).toEqual([{ id: other, summary: 'Release 2.0' }]);
      expect(out['rules'][0]).not.toHaveProperty('status');

      const resolved = json(await mem('items', 'open', thread!, '--status', 'done', '--json'));
      expect(resolved['children']).toMatchObject({
        total: 1,
        items: [{ id: done, status: 'done' }],
      });
      expect(c1).toMatch(/^it-/);

      const missing = await mem('items', 'open', 'it-000000000000', '--json');
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('NOT_FOUND');
    },
    SLOW,
  );
});
