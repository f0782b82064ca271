import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@mem/core';
import { asRoot, engineAt, tempDataRoot } from '../../../../../test/api/support.js';
import { openRegistry } from '../../open.js';
import type { Registry } from '../../registry.js';
import { LINE_BYTES } from './slim.js';

/*
 * Issue 13 §3 on a real store, in process: T0 over a CJK-heavy project (budgets are UTF-8
 * bytes, so a cut must fall between characters and every count stay exact), and T0 over
 * several projects (each section read from one index range per project and merged).
 */
const NOW = '2026-03-01T00:00:00.000Z';
const SECTIONS = ['rules', 'facts', 'threads', 'reminders', 'projects', 'tags'] as const;
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse(NOW) + days * DAY).toISOString();

type Entry = { id: string; project: string; summary: string; remind_at?: string };
type Section = {
  items: Entry[];
  total?: number;
  omitted?: number;
  bytes: number;
  cap: number;
};
type T0 = Record<(typeof SECTIONS)[number], Section> & Record<string, unknown>;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(root: string, budget?: string): Promise<Registry> {
  const registry = await openRegistry({
    engine: engineAt(root),
    version: '0.0.0-test',
    config: loadConfig(budget ? { MEM_ORIENT_BUDGET: budget } : {}),
    runJobs: false,
  });
  cleanups.push(() => registry.close());
  return registry;
}

async function add(registry: Registry, project: string, items: unknown[]): Promise<string[]> {
  return ((await asRoot(registry, 'add_items', { project, items })) as { ids: string[] }).ids;
}

const orient = async (registry: Registry, input: Record<string, unknown> = {}) => {
  const out = (await asRoot(registry, 'orient', { now: NOW, ...input })) as T0;
  return { out, text: JSON.stringify(out) };
};

/** The rules+facts prefix: the payload's bytes before the threads. */
const prefix = (text: string) => text.slice(0, text.indexOf('"threads"'));

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Every string in `value`, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/**
 * Whether `shown` is `full` as a listing shows it: whole, or the longest run of its leading
 * grapheme clusters that fits LINE_BYTES with `…` after it (never half a character or a
 * cluster: the next cluster would not have fitted).
 */
function cutBetweenCharacters(shown: string, full: string): boolean {
  if (shown === full) return bytes(full) <= LINE_BYTES;
  if (!shown.endsWith('…')) return false;
  const kept = shown.slice(0, -1);
  let at = 0;
  for (const { segment } of graphemes.segment(full)) {
    if (at === kept.length) return bytes(kept + segment + '…') > LINE_BYTES;
    at += segment.length;
    if (at > kept.length) return false;
  }
  return false;
}

describe('orient (T0) over a CJK-heavy store', () => {
  it('cuts CJK and emoji only between characters, keeps every count exact and every byte counted, and is byte-identical', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const registry = await open(
      root,
      'rules=512,facts=768,threads=1024,reminders=768,projects=256,tags=256',
    );
    await add(registry, 'alpha', [
      { type: 'rule', summary: 'テストは必ず conda run -n book で走らせること' },
      { type: 'rule', summary: '本番の鍵をログに書かない 🔑' },
      { type: 'fact', summary: 'テーマローダーは解析済みのテーマをパスごとにキャッシュする' },
      { type: 'fact', summary: '設定ファイルは YAML、文字コードは UTF-8 👨‍👩‍👧‍👦' },
    ]);
    // Summaries past LINE_BYTES, their cut falling at each offset of a 3-byte character (the
    // ASCII lead shifts it), inside a family emoji (25 bytes, 7 code points), after a newline.
    const long = (i: number) =>
      i % 4 === 3
        ? `${'x'.repeat(i)}${'👨‍👩‍👧‍👦'.repeat(12)}`
        : `${'a'.repeat(i % 3)}スレッド${i}：${'テーマ移行の作業'.repeat(12)}`;
    const threadSummaries = Array.from({ length: 12 }, (_, i) => long(i));
    threadSummaries.push('一行目のまとめ\n二行目は表示しない');
    const threads = await add(
      registry,
      'alpha',
      threadSummaries.map((summary, i) => ({
        type: 'thread',
        summary,
        tags: [`tag-${i}`, `t/${'x'.repeat(i)}`],
      })),
    );
    // Due within 14 days (three at one instant), overdue, after the window, and one done.
    const reminderDays = [3, 3, 3, -2, 1, 7, 13, 20, 30, 5];
    const reminders = await add(
      registry,
      'alpha',
      reminderDays.map((d, i) => ({
        type: 'reminder',
        summary: `${'b'.repeat(i % 3)}${'リマインダー：証明書を更新する'.repeat(6)}${i}`,
        remind_at: at(d),
      })),
    );
    await asRoot(registry, 'resolve_items', {
      project: 'alpha',
      ids: [reminders[9]],
      status: 'done',
    });

    const { out, text } = await orient(registry, { project: 'alpha' });
    // Valid UTF-8 throughout: no lone surrogate (a cut between an emoji's halves) survives a
    // round trip, and no replacement character was ever written.
    for (const s of strings(out)) {
      expect(Buffer.from(s, 'utf8').toString('utf8')).toBe(s);
      expect(s).not.toContain('\uFFFD');
    }
    for (const name of SECTIONS) {
      const s = out[name];
      expect(bytes(JSON.stringify(s.items))).toBe(s.bytes);
      expect(s.bytes).toBeLessThanOrEqual(s.cap);
      if (s.total !== undefined) expect(s.omitted).toBe(s.total - s.items.length);
    }

    // Threads: newest first, 13 open, only some fit; each summary's first line, cut whole.
    expect(out.threads.total).toBe(13);
    expect(out.threads.items.length).toBeGreaterThan(0);
    expect(out.threads.omitted).toBeGreaterThan(0);
    expect(out.threads.items.map((t) => t.id)).toEqual(
      [...threads].reverse().slice(0, out.threads.items.length),
    );
    for (const t of out.threads.items) {
      const full = threadSummaries[threads.indexOf(t.id)]!;
      const line = full.includes('\n') ? `${full.split('\n')[0]} …` : full;
      expect(cutBetweenCharacters(t.summary, line), t.summary).toBe(true);
    }
    expect(out.threads.items.some((t) => t.summary.endsWith('…'))).toBe(true);

    // Reminders: the 8 open ones due by NOW + 14 days, by instant then id, each cut whole.
    const due = reminderDays
      .map((d, i) => ({ id: reminders[i]!, remind_at: at(d), i }))
      .filter(({ remind_at, i }) => remind_at <= at(14) && i !== 9)
      .sort(
        (a, b) =>
          (a.remind_at < b.remind_at ? -1 : a.remind_at > b.remind_at ? 1 : 0) ||
          (a.id < b.id ? -1 : 1),
      );
    expect(out.reminders.total).toBe(due.length);
    expect(out.reminders.omitted).toBeGreaterThan(0);
    expect(out.reminders.items.map((r) => r.id)).toEqual(
      due.slice(0, out.reminders.items.length).map((r) => r.id),
    );
    for (const r of out.reminders.items) {
      const i = reminders.indexOf(r.id);
      const full = `${'b'.repeat(i % 3)}${'リマインダー：証明書を更新する'.repeat(6)}${i}`;
      expect(cutBetweenCharacters(r.summary, full), r.summary).toBe(true);
    }

    // Tags: 26 distinct, every one counted though few fit.
    expect(out.tags.total).toBe(26);
    expect(out.tags.omitted).toBeGreaterThan(0);

    // Byte-identical across calls, and from another registry on the same store.
    expect((await orient(registry, { project: 'alpha' })).text).toBe(text);
    const other = await open(
      root,
      'rules=512,facts=768,threads=1024,reminders=768,projects=256,tags=256',
    );
    expect((await orient(other, { project: 'alpha' })).text).toBe(text);

    // Activity, a new thread, a new reminder and another clock move what follows the prefix,
    // never the prefix; a new fact moves it.
    await asRoot(registry, 'add_log', {
      project: 'alpha',
      id: threads[0],
      text: '進捗：半分終わった',
    });
    await add(registry, 'alpha', [
      { type: 'thread', summary: '新しいスレッド' },
      { type: 'reminder', summary: '新しいリマインダー', remind_at: at(2) },
    ]);
    const later = await orient(registry, { project: 'alpha', now: at(4) });
    expect(later.text).not.toBe(text);
    expect(later.out.threads.items[0]!.summary).toBe('新しいスレッド');
    expect(later.out.threads.total).toBe(14);
    expect(prefix(later.text).length).toBeGreaterThan(200);
    expect(prefix(later.text)).toBe(prefix(text));
    await add(registry, 'alpha', [{ type: 'fact', summary: '新しい事実' }]);
    expect(prefix((await orient(registry, { project: 'alpha' })).text)).not.toBe(prefix(text));
  });
});

describe('orient (T0) over several projects', () => {
  it("merges each project's threads, due reminders and tags: projects in locale order, exact totals", async () => {
    // "b-x" and "b_x" sort one way as code units and the other in locale order.
    const projects = ['alpha', 'b-x', 'b_x'];
    const { root, cleanup } = tempDataRoot(projects);
    cleanups.push(cleanup);
    const registry = await open(root);
    const threads: string[] = [];
    const due: { id: string; project: string; remind_at: string }[] = [];
    for (const project of projects) {
      threads.push(
        ...(await add(registry, project, [
          { type: 'thread', summary: `${project} のスレッド一`, tags: ['shared', project] },
          { type: 'thread', summary: `${project} のスレッド二`, tags: ['shared', project] },
        ])),
      );
      const days = [2, 2, 5, 30];
      const ids = await add(
        registry,
        project,
        days.map((d) => ({ type: 'reminder', summary: `${project} 更新`, remind_at: at(d) })),
      );
      ids.forEach((id, i) => {
        if (days[i]! <= 14) due.push({ id, project, remind_at: at(days[i]!) });
      });
    }
    due.sort(
      (a, b) =>
        (a.remind_at < b.remind_at ? -1 : a.remind_at > b.remind_at ? 1 : 0) ||
        a.project.localeCompare(b.project) ||
        (a.id < b.id ? -1 : 1),
    );

    const { out, text } = await orient(registry);
    expect(out.threads).toMatchObject({ total: 6, omitted: 0 });
    expect(new Set(out.threads.items.map((t) => t.id))).toEqual(new Set(threads));
    expect(out.reminders).toMatchObject({ total: 9, omitted: 0 });
    expect(out.reminders.items.map((r) => r.id)).toEqual(due.map((r) => r.id));
    // Tags summed over the projects, most used first, then in locale order ("b_x" before "b-x").
    expect(out.tags).toMatchObject({ total: 4, omitted: 0 });
    expect(out.tags.items).toEqual([
      { tag: 'shared', count: 6 },
      ...[...projects].sort((a, b) => a.localeCompare(b)).map((tag) => ({ tag, count: 2 })),
    ]);
    expect((await orient(registry)).text).toBe(text);
  });
});
