import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { asRoot, tempDataRoot } from '../../../../../test/api/support.js';
import { testConfig } from '../../../../../test/support/test-config.js';
import { openRegistry } from '../../open.js';
import type { Registry } from '../../registry.js';

/*
 * Issue 13 §2: find_items answers `limit` + `offset` with an exact total on every truncated
 * answer. The stop-34 walk: 9 "loader" matches, 1 expired, 2 whose cited source changed or is
 * gone. The dates were held back inside the statement, the sources only on the page and then
 * subtracted from the total: `--limit 1..4` said 7, `--limit 10` said 6, and `--limit 1` came
 * back empty with truncated: true (rank 1 was source-stale). Every matched row citing a local
 * source is now judged before the statement, which leaves the held ones out.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** After the expired item's valid_until; the items are written at the real clock, before it. */
const RECALL = new Date('2031-01-01T00:00:00Z');

async function registryOn(root: string): Promise<Registry> {
  const registry = await openRegistry({
    engine: new Engine({ root, projectors: [projectorSqlite] }),
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: false,
    recallNow: () => RECALL,
  });
  cleanups.push(() => registry.close());
  return registry;
}

type Found = {
  total: number;
  truncated: boolean;
  items: { id: string }[];
  freshness_warnings: { id: string; reason: string; delivered: boolean }[];
  freshness_warnings_left_out?: number;
};

const find = (registry: Registry, input: Record<string, unknown>) =>
  asRoot(registry, 'find_items', { project: 'alpha', query: 'loader', ...input }) as Promise<Found>;

/** The walk's repro: 9 matches; the best-ranked (most "loader") is the changed one. */
async function walkRepro() {
  const { root, cleanup } = tempDataRoot(['alpha']);
  cleanups.push(cleanup);
  writeFileSync(join(root, 'changed.md'), 'before\n');
  writeFileSync(join(root, 'gone.md'), 'here\n');
  writeFileSync(join(root, 'kept.md'), 'kept\n');
  const registry = await registryOn(root);
  const items = [
    // Most "loader" of all: rank 1 by relevance.
    { summary: 'loader loader loader loader: the changed one', source_uri: 'changed.md' },
    { summary: 'loader loader loader: the gone one', source_uri: 'gone.md' },
    { summary: 'loader loader: the expired one', valid_until: '2030-06-01T00:00:00Z' },
    { summary: 'loader: cites a file that is unchanged', source_uri: 'kept.md' },
    ...[1, 2, 3, 4, 5].map((n) => ({ summary: `loader number ${n}` })),
  ];
  const { ids } = (await asRoot(registry, 'add_items', {
    project: 'alpha',
    items: items.map((item) => ({ type: 'fact', tags: ['io'], ...item })),
  })) as { ids: string[] };
  writeFileSync(join(root, 'changed.md'), 'after\n');
  unlinkSync(join(root, 'gone.md'));
  return { registry, ids, held: new Set(ids.slice(0, 3)) };
}

describe('find_items: an exact total when cited sources hold items back', () => {
  it('limits 1..10 give the same total; pages of 2 concatenate to the page of 10; no empty page while items remain', async () => {
    const { registry, ids, held } = await walkRepro();
    const whole = await find(registry, { limit: 10 });
    expect(whole.total).toBe(6);
    expect(whole.truncated).toBe(false);
    expect(whole.items.map((i) => i.id).sort()).toEqual(ids.filter((id) => !held.has(id)).sort());
    for (let limit = 1; limit <= 10; limit += 1) {
      const page = await find(registry, { limit });
      expect({ limit, total: page.total }).toEqual({ limit, total: 6 });
      expect(page.items.length).toBe(Math.min(limit, 6));
      expect(page.truncated).toBe(limit < 6);
    }
    const pages: string[] = [];
    for (let offset = 0; offset < 10; offset += 2) {
      const page = await find(registry, { limit: 2, offset });
      expect(page.total).toBe(6);
      if (page.truncated) expect(page.items.length).toBeGreaterThan(0);
      pages.push(...page.items.map((i) => i.id));
    }
    expect(pages).toEqual(whole.items.map((i) => i.id));
  });

  it('names every held-back match once, on every page, whatever the limit', async () => {
    const { registry, held } = await walkRepro();
    for (const limit of [1, 2, 10]) {
      const page = await find(registry, { limit });
      expect(page.freshness_warnings.map((w) => w.id).sort()).toEqual([...held].sort());
      expect(page.freshness_warnings.every((w) => !w.delivered)).toBe(true);
      expect(page.freshness_warnings_left_out).toBeUndefined();
    }
    const reasons = (await find(registry, { limit: 1 })).freshness_warnings
      .map((w) => w.reason)
      .sort();
    expect(reasons).toEqual(['expired', 'source_changed', 'source_unreadable']);
  });

  it('with include_stale nothing is held back: all 9 counted and paged, the 3 named as delivered', async () => {
    const { registry, held } = await walkRepro();
    const whole = await find(registry, { limit: 10, include_stale: true });
    expect(whole.total).toBe(9);
    expect(whole.items).toHaveLength(9);
    const pages: string[] = [];
    for (let offset = 0; offset < 10; offset += 2) {
      const page = await find(registry, { limit: 2, offset, include_stale: true });
      expect(page.total).toBe(9);
      expect(page.freshness_warnings.map((w) => w.id).sort()).toEqual([...held].sort());
      expect(page.freshness_warnings.every((w) => w.delivered)).toBe(true);
      pages.push(...page.items.map((i) => i.id));
    }
    expect(pages).toEqual(whole.items.map((i) => i.id));
  });

  it('a keyword find a tag drives (its own strategy) leaves the same items out', async () => {
    const { registry } = await walkRepro();
    const whole = await find(registry, { tag: 'io', limit: 10 });
    expect(whole.total).toBe(6);
    const pages: string[] = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const page = await find(registry, { tag: 'io', limit: 2, offset });
      expect(page.total).toBe(6);
      expect(page.items).toHaveLength(2);
      pages.push(...page.items.map((i) => i.id));
    }
    expect(pages).toEqual(whole.items.map((i) => i.id));
    expect(pages).toEqual((await find(registry, { limit: 10 })).items.map((i) => i.id));
  });

  it('without a keyword query (a filter find) the total and pages are exact too', async () => {
    const { registry } = await walkRepro();
    const whole = (await asRoot(registry, 'find_items', {
      project: 'alpha',
      type: 'fact',
      limit: 10,
    })) as Found;
    expect(whole.total).toBe(6);
    const pages: string[] = [];
    for (let offset = 0; offset < 6; offset += 1) {
      const page = (await asRoot(registry, 'find_items', {
        project: 'alpha',
        type: 'fact',
        limit: 1,
        offset,
      })) as Found;
      expect(page.total).toBe(6);
      expect(page.items).toHaveLength(1);
      pages.push(page.items[0]!.id);
    }
    expect(pages).toEqual(whole.items.map((i) => i.id));
  });
});
