import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { asRoot, engineAt, registryAt, tempDataRoot } from '../../../../../test/api/support.js';
import type { Registry } from '../../registry.js';

/*
 * Issue 13 "Performance": item reads answer from the SQLite item projection, never from a fold
 * of the project's log, and a keyword query is FTS5 over summary and detail, its text never
 * syntax. A real data root, a real engine and store.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const { root, cleanup } = tempDataRoot(['alpha']);
  const registry = await registryAt(root, { runJobs: false });
  const engine = registry.context.engine;
  cleanups.push(cleanup, () => registry.close());
  return { root, engine, registry };
}

type Found = {
  total: number;
  truncated: boolean;
  items: { id: string; summary: string; matched_terms?: string[] }[];
};

async function add(registry: Registry, items: unknown[]): Promise<string[]> {
  const out = (await asRoot(registry, 'add_items', { project: 'alpha', items })) as {
    ids: string[];
  };
  return out.ids;
}

const find = (registry: Registry, input: Record<string, unknown>) =>
  asRoot(registry, 'find_items', { projects: ['alpha'], ...input }) as Promise<Found>;

describe('item reads from the SQLite projection', () => {
  it('orient, open, read_items and find_items read no event of the log', async () => {
    const { engine, registry } = await setup();
    const [thread] = await add(registry, [{ type: 'thread', summary: 'Theme loader rework' }]);
    const [task] = await add(registry, [
      { type: 'task', summary: 'Port the loader to ESM', parent: thread },
      { type: 'rule', summary: 'Never block the render loop' },
      { type: 'fact', summary: 'Themes are cached', anchors: [thread] },
      { type: 'reminder', summary: 'Ship it', remind_at: '2026-01-05T00:00:00Z' },
    ]);
    const read = vi.spyOn(engine, 'read');
    const orientation = (await asRoot(registry, 'orient', {
      now: '2026-01-01T00:00:00Z',
    })) as { threads: { items: { id: string; open_count: number }[] } };
    expect(orientation.threads.items).toMatchObject([{ id: thread, open_count: 1 }]);
    const opened = (await asRoot(registry, 'open', { id: thread })) as {
      children: { total: number };
      facts: unknown[];
    };
    expect(opened).toMatchObject({ children: { total: 1 }, facts: [{ type: 'fact' }] });
    expect(await asRoot(registry, 'read_items', { ids: [task] })).toMatchObject({
      items: [{ id: task, parent: thread }],
    });
    expect((await find(registry, { type: 'task' })).total).toBe(1);
    expect(read).not.toHaveBeenCalled();
  });

  it('add_items checks its parents, anchors and the knowledge budget without reading the log', async () => {
    const { engine, registry } = await setup();
    const [thread] = await add(registry, [{ type: 'thread', summary: 'Theme loader rework' }]);
    const read = vi.spyOn(engine, 'read');
    const ids = await add(registry, [
      { type: 'task', summary: 'Port the loader to ESM', parent: thread },
      { type: 'fact', summary: 'Themes are cached', anchors: [thread] },
      { type: 'fact', summary: 'The loader is synchronous' },
    ]);
    expect(ids).toHaveLength(3);
    const missing = await add(registry, [
      { type: 'task', summary: 'Orphan', parent: 'it-000000000000' },
    ]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(hasErrorCode(missing, 'NOT_FOUND')).toBe(true);
    expect((missing as { details: { field: string } }).details.field).toBe('items[0].parent');
    expect(read).not.toHaveBeenCalled();
  });

  it('a read sees what another writer appended without catching up', async () => {
    const { root, registry } = await setup();
    const other = engineAt(root);
    await other.append(
      'alpha',
      [{ type: 'item_added', item_type: 'task', summary: 'Written elsewhere' }],
      { kind: 'cli' },
      { catchUp: 'later' },
    );
    expect(await find(registry, { query: 'elsewhere' })).toMatchObject({
      total: 1,
      items: [{ summary: 'Written elsewhere' }],
    });
  });
});

describe('find_items keyword query: FTS5, OR-ranked, text never syntax', () => {
  it('ranks items matching more terms first, counts every item matching any, names the matched terms', async () => {
    const { registry } = await setup();
    await add(registry, [
      { type: 'task', summary: 'Alpha cleanup' },
      { type: 'task', summary: 'Unrelated work' },
      { type: 'task', summary: 'Gamma beta alpha rework', detail: 'also touches beta' },
    ]);
    const found = await find(registry, { query: 'alpha beta gamma' });
    expect(found.total).toBe(2);
    expect(found.items.map((i) => i.summary)).toEqual(['Gamma beta alpha rework', 'Alpha cleanup']);
    expect(found.items.map((i) => i.matched_terms)).toEqual([
      ['alpha', 'beta', 'gamma'],
      ['alpha'],
    ]);
    const page = await find(registry, { query: 'alpha beta gamma', limit: 1, offset: 1 });
    expect(page).toMatchObject({
      total: 2,
      truncated: false,
      items: [{ summary: 'Alpha cleanup' }],
    });
    expect(await find(registry, { query: 'alpha', limit: 1 })).toMatchObject({
      total: 2,
      truncated: true,
    });
  });

  it.each([
    ['a hyphen', 'theme-loader', ['Theme loader rework', 'Themes are cached']],
    ['a column filter', 'text:loader', ['Theme loader rework']],
    ['a prefix star', 'load*', []],
    ['an unbalanced quote', '"loader', ['Theme loader rework']],
    ['NEAR', 'NEAR(theme cache)', ['Theme loader rework', 'Themes are cached']],
    ['AND NOT', 'cached NOT theme', ['Theme loader rework', 'Themes are cached']],
    ['a caret and parentheses', '^(cached', ['Themes are cached']],
  ])('%s is text: %j', async (_what, query, summaries) => {
    const { registry } = await setup();
    await add(registry, [
      { type: 'task', summary: 'Theme loader rework' },
      { type: 'fact', summary: 'Themes are cached' },
    ]);
    const found = await find(registry, { query });
    expect(found.items.map((i) => i.summary).sort()).toEqual([...summaries].sort());
    expect(found.total).toBe(summaries.length);
  });

  it('a query of no word at all is refused naming the field, not answered with everything', async () => {
    const { registry } = await setup();
    await add(registry, [{ type: 'task', summary: 'Theme loader rework' }]);
    const error = await find(registry, { query: '*** -- ""' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(hasErrorCode(error, 'INVALID_INPUT')).toBe(true);
    expect((error as { details: { field: string } }).details.field).toBe('query');
  });

  it('an empty project list (projects: [] or "") is refused naming the field, never answered with nothing', async () => {
    const { registry } = await setup();
    await add(registry, [{ type: 'task', summary: 'Theme loader rework' }]);
    for (const projects of [[], '', ' , ']) {
      for (const input of [{ projects }, { projects, query: 'loader' }]) {
        const error = await asRoot(registry, 'find_items', input).then(
          () => null,
          (e: unknown) => e,
        );
        expect(hasErrorCode(error, 'INVALID_INPUT')).toBe(true);
        expect((error as { details: { field: string } }).details.field).toBe('projects');
      }
    }
    // One project named either way still answers.
    expect((await asRoot(registry, 'find_items', { projects: 'alpha' })) as Found).toMatchObject({
      total: 1,
    });
  });
});
