import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logBytes } from './support/data-root.js';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 13 §1-2: curated items through the CLI, on a real data root, as an agent would write
 * them: remember, find, resolve (a container needs a disposition), history.
 */
let root: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);
const json = (run: { stdout: string }) => JSON.parse(run.stdout) as Record<string, unknown>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-items-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('curated items over the CLI', () => {
  it('remember → find → resolve (with a disposition) → history', async () => {
    const thread = await mem(
      'remember',
      'Theme loader rework',
      '--type',
      'thread',
      '--project',
      'demo',
      '--json',
    );
    expect(thread.code).toBe(0);
    const [threadId] = json(thread)['ids'] as string[];
    expect(threadId).toMatch(/^it-[0-9a-f]{12}$/);
    const task = await mem(
      'remember',
      'Port the loader to ESM',
      '--type',
      'task',
      '--project',
      'demo',
      '--parent',
      threadId!,
      '--due',
      '2026-02-01T00:00:00Z',
      '--json',
    );
    expect(task.code).toBe(0);
    const [taskId] = json(task)['ids'] as string[];
    const fact = await mem(
      'remember',
      'The loader caches parsed themes',
      '--type',
      'fact',
      '--project',
      'demo',
      '--anchor',
      threadId!,
      '--json',
    );
    expect(fact.code).toBe(0);

    // Any of the words (FTS5, OR), the item holding both first.
    const found = await mem('items', 'find', '--query', 'loader esm', '--json');
    expect(found.code).toBe(0);
    expect(json(found)).toMatchObject({
      total: 3,
      truncated: false,
      items: [
        {
          id: taskId,
          type: 'task',
          status: 'open',
          parent: threadId,
          matched_terms: ['loader', 'esm'],
        },
        { matched_terms: ['loader'] },
        { matched_terms: ['loader'] },
      ],
    });
    const page = json(await mem('items', 'find', '--project', 'demo', '--limit', '1', '--json'));
    // Without a query every item ties on relevance and recency orders (issue 13 §5): newest first.
    expect(page).toMatchObject({
      total: 3,
      truncated: true,
      items: [{ id: (json(fact)['ids'] as string[])[0] }],
    });

    // Completing the thread with an open task under it, and no disposition: refused, listing it.
    const before = logBytes(root, 'demo');
    const refused = await mem(
      'items',
      'resolve',
      threadId!,
      '--project',
      'demo',
      '--status',
      'done',
      '--json',
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('CONFLICT');
    expect(refused.stderr).toContain(taskId);
    expect(logBytes(root, 'demo')).toBe(before);

    const resolved = await mem(
      'items',
      'resolve',
      threadId!,
      '--project',
      'demo',
      '--status',
      'done',
      '--descendants',
      'dropped',
      '--reason',
      'shipped',
      '--json',
    );
    expect(resolved.code).toBe(0);
    expect(json(resolved)['ids']).toEqual([taskId, threadId]);
    const read = json(await mem('items', 'read', taskId!, threadId!, '--json'));
    expect((read['items'] as { status: string }[]).map((i) => i.status)).toEqual([
      'dropped',
      'done',
    ]);

    // Re-resolving writes nothing.
    const settled = logBytes(root, 'demo');
    const again = await mem(
      'items',
      'resolve',
      threadId!,
      '--project',
      'demo',
      '--status',
      'done',
      '--json',
    );
    expect(again.code).toBe(0);
    expect(json(again)).toMatchObject({ ids: [], seq: null });
    expect(logBytes(root, 'demo')).toBe(settled);

    const history = await mem('history', threadId!, '--project', 'demo', '--json');
    expect(history.code).toBe(0);
    expect(json(history)).toMatchObject({
      target: threadId,
      target_kind: 'item',
      entries: [
        { type: 'item_added', actor: expect.any(String) },
        { type: 'item_resolved', reason: 'shipped', actor: expect.any(String) },
      ],
    });
  });

  it('history names the relation and the other item of a relate and an unrelate', async () => {
    const add = async (summary: string) => {
      const run = await mem('remember', summary, '--type', 'task', '--project', 'demo', '--json');
      expect(run.code, run.stderr).toBe(0);
      return (json(run)['ids'] as string[])[0]!;
    };
    const task = await add('Port the loader to ESM');
    const other = await add('Drop the CommonJS build');
    for (const extra of [[], ['--remove', '--reason', 'not blocking after all']]) {
      const run = await mem(
        'items',
        'relate',
        task,
        '--project',
        'demo',
        '--relation',
        'blocked_by',
        '--target',
        other,
        ...extra,
      );
      expect(run.code, run.stderr).toBe(0);
    }
    const history = await mem('history', task, '--project', 'demo', '--json');
    expect(json(history)['entries']).toMatchObject([
      { type: 'item_added' },
      { type: 'item_related', relation: 'blocked_by', related: other, end: 'item' },
      {
        type: 'item_unrelated',
        relation: 'blocked_by',
        related: other,
        end: 'item',
        reason: 'not blocking after all',
      },
    ]);
    const text = (await mem('history', task, '--project', 'demo')).stdout;
    expect(text).toMatch(new RegExp(`item_related by \\S+ blocked_by ${other}`));
    expect(text).toContain(`: not blocking after all blocked_by ${other}`);
    expect(text).not.toContain('[before -]');
    // The other end lists both events too, as their target (stop-29 walk: it listed neither).
    const theirs = await mem('history', other, '--project', 'demo', '--json');
    expect(json(theirs)['entries']).toMatchObject([
      { type: 'item_added' },
      { type: 'item_related', relation: 'blocked_by', related: task, end: 'target' },
      { type: 'item_unrelated', relation: 'blocked_by', related: task, end: 'target' },
    ]);
    const theirText = (await mem('history', other, '--project', 'demo')).stdout;
    expect(theirText).toMatch(new RegExp(`item_related by \\S+ blocked_by from ${task}`));
  });

  it('items add --file is one atomic batch: one bad item and nothing is written, naming its index and field', async () => {
    const file = join(root, 'items.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ type: 'fact', summary: 'The default branch is master' }),
        JSON.stringify({
          type: 'rule',
          summary: 'Run tests with conda run -n book pytest',
          detail: 'not allowed on a rule',
        }),
      ].join('\n') + '\n',
    );
    const refused = await mem('items', 'add', '--project', 'demo', '--file', file, '--json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('items[1].detail');
    expect(refused.stderr).toContain('does not apply to a rule');
    expect(readdirSync(root)).not.toContain('log');
    // The refusal names the file's line as well as the item (a blank line counts as a line).
    writeFileSync(file, `\n${readFileSync(file, 'utf8')}`);
    const said = await mem('items', 'add', '--project', 'demo', '--file', file);
    expect(said.code).toBe(2);
    expect(said.stderr).toContain(
      'mem: --file: line 3 (items[1]).detail: detail does not apply to a rule',
    );
    expect(JSON.parse(refused.stderr).error.details).toMatchObject({ field: 'items[1].detail' });
    expect(readdirSync(root)).not.toContain('log');

    writeFileSync(
      file,
      JSON.stringify({ type: 'fact', summary: 'The default branch is master', tags: ['git'] }) +
        '\n',
    );
    const added = await mem('items', 'add', '--project', 'demo', '--file', file, '--json');
    expect(added.code).toBe(0);
    expect(json(added)['ids']).toHaveLength(1);
  });

  // Stop 31: `--anchor <unknown>` said `--anchor: anchor[0]: no live item …`, the field
  // named twice; the flag and the id the message names say which anchor.
  it('names an unknown or wrong anchor by the flag and its id, once', async () => {
    const seed = await mem(
      'remember',
      'A thread',
      '--type',
      'thread',
      '--project',
      'demo',
      '--json',
    );
    const [threadId] = json(seed)['ids'] as string[];
    const fact = await mem('remember', 'A fact', '--type', 'fact', '--project', 'demo', '--json');
    const [factId] = json(fact)['ids'] as string[];
    const before = logBytes(root, 'demo');
    const cases: [string[], string, string][] = [
      [
        ['--anchor', 'it-000000000000'],
        'NOT_FOUND',
        'no live item it-000000000000 in project "demo"',
      ],
      // The second of two: the id says which.
      [
        ['--anchor', threadId!, '--anchor', 'it-0000000000aa'],
        'NOT_FOUND',
        'no live item it-0000000000aa in project "demo"',
      ],
      [
        ['--anchor', `${threadId!},${factId!}`],
        'INVALID_INPUT',
        `${factId!} is a fact; expected a work item (task, thread, reminder)`,
      ],
    ];
    for (const [flags, code, says] of cases) {
      const run = await mem('remember', 'x', '--type', 'fact', '--project', 'demo', ...flags);
      expect(run.code, flags.join(' ')).not.toBe(0);
      expect(run.stderr.trim()).toBe(`mem: --anchor: ${says} [${code}]`);
    }
    expect(logBytes(root, 'demo')).toBe(before);
  });

  it('refuses bad input to every item command, typed, writing nothing', async () => {
    const seed = await mem('remember', 'A fact', '--type', 'fact', '--project', 'demo', '--json');
    const [factId] = json(seed)['ids'] as string[];
    const before = logBytes(root, 'demo');
    const cases: [string[], string][] = [
      [
        ['remember', 'x', '--type', 'rule', '--project', 'demo', '--due', '2026-02-01T00:00:00Z'],
        '--due does not apply to a rule',
      ],
      [
        [
          'remember',
          'x',
          '--type',
          'task',
          '--project',
          'demo',
          '--valid-until',
          '2026-02-01T00:00:00Z',
        ],
        // The flag the user typed, not the field it feeds (valid_until).
        '--valid-until does not apply to a task',
      ],
      [['remember', 'x', '--type', 'reminder', '--project', 'demo'], '--remind-at: missing'],
      [['remember', 'x', '--type', 'task', '--project', 'demo', '--parent', factId!], 'parent'],
      [
        ['remember', 'x', '--type', 'task', '--project', 'demo', '--parent', 'it-000000000000'],
        'NOT_FOUND',
      ],
      // The flag, not the batch field remember writes through (`items[0].parent` before).
      [
        ['remember', 'x', '--type', 'task', '--project', 'demo', '--parent', 'it-000000000000'],
        'mem: --parent: no live item it-000000000000',
      ],
      [['remember', 'x', '--type', 'idea', '--project', 'demo'], 'type'],
      [
        ['items', 'resolve', factId!, '--project', 'demo', '--status', 'done'],
        'knowledge has no status',
      ],
      [['items', 'read', 'it-000000000000'], 'NOT_FOUND'],
      [['items', 'read', 'nope'], 'ids[0]'],
      [['items', 'find', '--limit', '0'], 'limit'],
    ];
    for (const [args, says] of cases) {
      const run = await mem(...args);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toContain(says);
    }
    expect(logBytes(root, 'demo')).toBe(before);
  });
});
