import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonlFile, logBytes, logHeadSeq } from './support/data-root.js';
import { memInProcess, memProcess, type MemRun } from './support/mem-cli.js';

/*
 * Seed 000 §6 `add_log` through the CLI on a real data root: `mem items log ID TEXT` appends an
 * item_logged event that `mem history` lists, moves a thread's activity in T0 and its
 * children's order in T1, and leaves the rules+facts prefix byte for byte (M3.13's trap). Every
 * refusal writes nothing.
 */
let root: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);
const json = (run: MemRun) => {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, any>;
};

/** One `mem items add --file` batch: the ids in input order. */
async function add(project: string, ...items: Record<string, unknown>[]): Promise<string[]> {
  const file = jsonlFile(root, items);
  const run = await mem('items', 'add', '--project', project, '--file', file, '--json');
  // A second project of the root is named as the project the write starts.
  const stderr = run.stderr.replace(`mem: new project ${project} (known: demo)\n`, '');
  return json({ ...run, stderr })['ids'] as string[];
}

const NOW = '2026-03-01T12:00:00.000Z';
/** T0 as a real process prints it: the comparison is across processes (M3.13's false pass). */
const orient = () => memProcess(['--root', root, 'orient', '--now', NOW, '--json']);
/** The rules and facts sections: every byte before the threads. */
const prefix = (stdout: string) => stdout.slice(0, stdout.indexOf('"threads"'));
const threadIds = (run: MemRun) =>
  (json(run)['threads'].items as { id: string }[]).map((t) => t.id);
/** The machine is shared and several commands are whole CLI processes: generous, not a latency claim. */
const SLOW = 300_000;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-items-log-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem items log (add_log)', () => {
  it(
    'logs without changing the item: history lists it, thread activity moves in T0 and T1, the rules+facts prefix stays byte-identical',
    async () => {
      const [rule, fact, older] = await add(
        'demo',
        { type: 'rule', summary: 'Run the tests with npm test' },
        { type: 'fact', summary: 'The theme loader caches parsed themes' },
        { type: 'thread', summary: 'Theme loader rework' },
      );
      const [first, second] = await add(
        'demo',
        { type: 'task', summary: 'Find why the loader crashes', parent: older },
        { type: 'task', summary: 'Port the loader to ESM', parent: older },
      );
      const [newer] = await add('demo', { type: 'thread', summary: 'Release 2.0' });
      const before = orient();
      expect(threadIds(before)).toEqual([newer, older]);
      const children = async () =>
        (
          json(await mem('items', 'open', older!, '--json'))['children'].items as { id: string }[]
        ).map((c) => c.id);
      expect(await children()).toEqual([second, first]);
      const readBefore = json(await mem('items', 'read', first!, '--json'))['items'][0];

      const head = logHeadSeq(root, 'demo');
      const logged = json(
        await mem(
          'items',
          'log',
          first!,
          'Found it: the YAML parser throws on tabs',
          '--conversation',
          'session-42',
          '--reason',
          'progress',
          '--project',
          'demo',
          '--json',
        ),
      );
      expect(logged).toEqual({ project: 'demo', ids: [first], seq: head + 1 });
      const event = JSON.parse(logBytes(root, 'demo').trimEnd().split('\n').at(-1)!);
      expect(event).toMatchObject({
        seq: head + 1,
        type: 'item_logged',
        item: first,
        text: 'Found it: the YAML parser throws on tabs',
        conversation: 'session-42',
        reason: 'progress',
        writer: { kind: 'cli' },
      });

      // The item is as it was, but for its activity.
      const readAfter = json(await mem('items', 'read', first!, '--json'))['items'][0];
      expect({ ...readAfter, updated_seq: 0, updated_ts: '' }).toEqual({
        ...readBefore,
        updated_seq: 0,
        updated_ts: '',
      });
      expect(readAfter.updated_seq).toBe(head + 1);

      const history = json(await mem('history', first!, '--project', 'demo', '--json'));
      expect(history['entries'].map((e: { type: string }) => e.type)).toEqual([
        'item_added',
        'item_logged',
      ]);
      expect(history['entries'][1]).toMatchObject({
        seq: head + 1,
        type: 'item_logged',
        reason: 'progress',
        text: 'Found it: the YAML parser throws on tabs',
        conversation: 'session-42',
      });
      const text = await mem('history', first!, '--project', 'demo');
      expect(text.stdout).toContain('item_logged');
      expect(text.stdout).toContain('Found it: the YAML parser throws on tabs');

      // T1: the logged child leads; T0: its thread is the most recently active one.
      expect(await children()).toEqual([first, second]);
      const afterChild = orient();
      expect(threadIds(afterChild)).toEqual([older, newer]);
      expect(prefix(afterChild.stdout).length).toBeGreaterThan(100);
      expect(prefix(afterChild.stdout)).toBe(prefix(before.stdout));

      // A log on the fact and on the rule: their recency moves, T0's cached prefix does not.
      json(
        await mem(
          'items',
          'log',
          fact!,
          'Still true after the rework',
          '--project',
          'demo',
          '--json',
        ),
      );
      json(await mem('items', 'log', rule!, 'Checked in CI', '--project', 'demo', '--json'));
      // A log on the other thread puts it first again.
      json(await mem('items', 'log', newer!, 'Cut the branch', '--project', 'demo', '--json'));
      const afterKnowledge = orient();
      expect(threadIds(afterKnowledge)).toEqual([newer, older]);
      expect(prefix(afterKnowledge.stdout)).toBe(prefix(before.stdout));
    },
    SLOW,
  );

  it(
    'refuses an unknown, deleted or other project item (NOT_FOUND) and an empty or oversized text (INVALID_INPUT, naming the cap), writing nothing',
    async () => {
      const [task, doomed] = await add(
        'demo',
        { type: 'task', summary: 'Port the loader to ESM' },
        { type: 'task', summary: 'Drop the old loader' },
      );
      const [elsewhere] = await add('other', { type: 'task', summary: 'Not in demo' });
      json(
        await mem(
          'items',
          'delete',
          doomed!,
          '--project',
          'demo',
          '--reason',
          'obsolete',
          '--json',
        ),
      );

      const refusals: [string[], string, string][] = [
        [['items', 'log', 'it-000000000000', 'text'], 'NOT_FOUND', 'it-000000000000'],
        [['items', 'log', doomed!, 'text'], 'NOT_FOUND', doomed!],
        [['items', 'log', elsewhere!, 'text'], 'NOT_FOUND', elsewhere!],
        [['items', 'log', task!, '   '], 'INVALID_INPUT', 'text'],
        [['items', 'log', task!, 'x'.repeat(4_001)], 'INVALID_INPUT', '4000'],
      ];
      for (const [args, code, named] of refusals) {
        const demo = logBytes(root, 'demo');
        const other = logBytes(root, 'other');
        const head = logHeadSeq(root, 'demo');
        const run = await mem(...args, '--project', 'demo', '--json');
        expect(run.code, args.join(' ')).not.toBe(0);
        const error = JSON.parse(run.stderr.trim().split('\n').at(-1)!).error;
        expect(error.code, args.join(' ')).toBe(code);
        expect(error.message, args.join(' ')).toContain(named);
        expect(logHeadSeq(root, 'demo')).toBe(head);
        expect(logBytes(root, 'demo')).toBe(demo);
        expect(logBytes(root, 'other')).toBe(other);
      }
      // At the cap exactly, the text is taken.
      json(await mem('items', 'log', task!, 'y'.repeat(4_000), '--project', 'demo', '--json'));
    },
    SLOW,
  );
});
