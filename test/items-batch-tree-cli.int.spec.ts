import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonlFile, logBytes, logHeadSeq } from './support/data-root.js';
import { memInProcess, type MemRun } from './support/mem-cli.js';

/*
 * Issue 13 §1: a parent and its children in one `mem items add --file` batch. An item names
 * itself with `ref`; a later one names it with `parent_ref` or `anchor_refs`. Each bad ref is
 * INVALID_INPUT naming the index and field, and nothing is written.
 */
let root: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);
const json = (run: MemRun) => {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, any>;
};

const add = (items: Record<string, unknown>[]) =>
  mem('items', 'add', '--project', 'demo', '--file', jsonlFile(root, items), '--json');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-batch-tree-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a parent and its children in one add_items batch', () => {
  it('writes the tree in one batch, the ids in input order', async () => {
    json(await add([{ type: 'task', summary: 'Before the batch' }]));
    const head = logHeadSeq(root, 'demo');
    const out = json(
      await add([
        { type: 'thread', summary: 'Theme loader rework', ref: 'rework' },
        { type: 'task', summary: 'Port the loader to ESM', parent_ref: 'rework', ref: 'port' },
        { type: 'task', summary: 'Drop CommonJS', parent_ref: 'port' },
        { type: 'fact', summary: 'The loader caches parsed themes', anchor_refs: ['rework'] },
      ]),
    );
    expect(out['seq']).toBe(head + 4);
    const [thread, port, drop, fact] = out['ids'] as string[];
    const read = json(await mem('items', 'read', thread!, port!, drop!, fact!, '--json'));
    expect(read['items']).toMatchObject([
      { id: thread, type: 'thread', parent: null },
      { id: port, type: 'task', parent: thread },
      { id: drop, type: 'task', parent: port },
      { id: fact, type: 'fact', anchors: [thread] },
    ]);
    // The refs are the batch's own: the log holds ids.
    expect(logBytes(root, 'demo')).not.toContain('parent_ref');
    const open = json(await mem('items', 'open', thread!, '--json'));
    expect(open['children'].items.map((c: { id: string }) => c.id)).toEqual([port]);
    expect(open['facts'].map((f: { id: string }) => f.id)).toEqual([fact]);
  });

  it('refuses unknown, later, duplicate and mistyped refs naming index and field, writing nothing', async () => {
    json(await add([{ type: 'task', summary: 'Before the batch' }]));
    const cases: [Record<string, unknown>[], string][] = [
      [[{ type: 'task', summary: 'Orphan', parent_ref: 'nowhere' }], 'items[0].parent_ref'],
      [
        [
          { type: 'task', summary: 'Child first', parent_ref: 'later' },
          { type: 'thread', summary: 'Parent after', ref: 'later' },
        ],
        'items[0].parent_ref',
      ],
      [
        [
          { type: 'task', summary: 'A', ref: 'a', parent_ref: 'b' },
          { type: 'task', summary: 'B', ref: 'b', parent_ref: 'a' },
        ],
        'items[0].parent_ref',
      ],
      [[{ type: 'task', summary: 'Self', ref: 'me', parent_ref: 'me' }], 'items[0].parent_ref'],
      [
        [
          { type: 'thread', summary: 'One', ref: 'x' },
          { type: 'thread', summary: 'Two', ref: 'x' },
        ],
        'items[1].ref',
      ],
      [
        [
          { type: 'fact', summary: 'Knowledge', ref: 'k' },
          { type: 'task', summary: 'Under a fact', parent_ref: 'k' },
        ],
        'items[1].parent_ref',
      ],
      [
        [
          { type: 'thread', summary: 'Work', ref: 'w' },
          { type: 'fact', summary: 'A fact with a parent', parent_ref: 'w' },
        ],
        'items[1].parent_ref',
      ],
      [
        [
          { type: 'thread', summary: 'Work', ref: 'w' },
          { type: 'task', summary: 'A task with anchors', anchor_refs: ['w'] },
        ],
        'items[1].anchor_refs[0]',
      ],
      [[{ type: 'task', summary: 'Bad ref', ref: 'no spaces' }], 'items[0].ref'],
    ];
    for (const [items, field] of cases) {
      const before = logBytes(root, 'demo');
      const head = logHeadSeq(root, 'demo');
      const run = await add(items);
      expect(run.code, field).not.toBe(0);
      const error = JSON.parse(run.stderr.trim().split('\n').at(-1)!).error;
      expect(error, JSON.stringify(items)).toMatchObject({
        code: 'INVALID_INPUT',
        details: { field },
      });
      expect(logHeadSeq(root, 'demo')).toBe(head);
      expect(logBytes(root, 'demo')).toBe(before);
    }
  });
});
