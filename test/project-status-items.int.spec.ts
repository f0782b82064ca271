import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/* The stop-32 walk: `mem project status` counted nodes and chunks, never the curated items. */
let root: string;
const mem = (args: string[]) => memInProcess(['--root', root, ...args]);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-status-items-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem project status', () => {
  it(
    'counts live items per type, and the open ones of each work type',
    { timeout: 60_000 },
    async () => {
      const remember = async (text: string, type: string) => {
        const out = await mem(['remember', text, '--type', type, '--project', 'demo', '--json']);
        expect(out.code).toBe(0);
        return (JSON.parse(out.stdout) as { ids: string[] }).ids[0]!;
      };
      await remember('Releases are cut from main.', 'fact');
      const done = await remember('Cut the release', 'task');
      await remember('Write the notes', 'task');
      const gone = await remember('Old thread', 'thread');
      expect(
        (await mem(['items', 'resolve', done, '--status', 'done', '--project', 'demo'])).code,
      ).toBe(0);
      expect(
        (await mem(['items', 'delete', gone, '--project', 'demo', '--reason', 'not needed'])).code,
      ).toBe(0);
      const json = await mem(['project', 'status', 'demo', '--json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout).items).toEqual([
        { type: 'rule', total: 0, open: null },
        { type: 'fact', total: 1, open: null },
        { type: 'task', total: 2, open: 1 },
        { type: 'thread', total: 0, open: 0 },
        { type: 'reminder', total: 0, open: 0 },
      ]);
      const text = await mem(['project', 'status', 'demo']);
      expect(text.stdout).toContain(
        'items: rule 0, fact 1, task 2 (1 open), thread 0 (0 open), reminder 0 (0 open)',
      );
    },
  );
});
