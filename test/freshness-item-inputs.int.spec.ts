import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 13 §4: the freshness inputs an item carries — a review date and a cited source on
 * knowledge, the open marker of an unresolved task or thread — read against the caller's clock
 * (MEM_NOW), the log written at the real time.
 */
let root: string;

const FROZEN = { MEM_NOW: '2031-01-01T00:00:00Z' };
const mem = (args: string[], env: Record<string, string> = FROZEN) =>
  memInProcess(['--root', root, ...args], { env });
const json = (run: { stdout: string }) => JSON.parse(run.stdout) as Record<string, unknown>;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Every line the log holds: a refusal must leave the count as it was. */
function logLines(): number {
  const dir = join(root, 'log');
  let lines = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && entry.name.endsWith('.jsonl'))
      lines += readFileSync(join(entry.parentPath, entry.name), 'utf8')
        .split('\n')
        .filter(Boolean).length;
  return lines;
}

async function remember(summary: string, type: string, ...flags: string[]): Promise<string> {
  const run = await mem([
    'remember',
    summary,
    '--type',
    type,
    '--project',
    'demo',
    ...flags,
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return (json(run)['ids'] as string[])[0]!;
}

type Found = {
  items: { id: string; freshness: { state: string; open_marker: string | null } }[];
  freshness_warnings: { id: string; state: string; reason: string; delivered: boolean }[];
};
const find = async (...flags: string[]) =>
  json(await mem(['items', 'find', '--project', 'demo', ...flags, '--json'])) as unknown as Found;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-fresh-inputs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a review date on knowledge', () => {
  it('is stale past its review date (held back, warned) and fresh again once confirmed', async () => {
    const id = await remember(
      'Deploys go through the blue pipeline',
      'fact',
      '--review-after',
      '2030-06-01T00:00:00Z',
    );

    const held = await find();
    expect(held.items).toEqual([]);
    expect(held.freshness_warnings).toEqual([
      expect.objectContaining({
        id,
        state: 'stale',
        reason: 'review_due',
        delivered: false,
        next_action: 'confirm',
      }),
    ]);
    const orient = json(await mem(['orient', '--project', 'demo', '--json']));
    expect(orient['freshness_warnings']).toEqual([
      expect.objectContaining({ id, state: 'stale', reason: 'review_due', delivered: true }),
    ]);

    const confirmed = await mem([
      'items',
      'confirm',
      id,
      '--project',
      'demo',
      '--review-after',
      '2031-06-01T00:00:00Z',
      '--json',
    ]);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    const fresh = await find();
    expect(fresh.items.map((i) => [i.id, i.freshness.state])).toEqual([[id, 'fresh']]);
    expect(fresh.freshness_warnings).toEqual([]);
    const history = await mem(['history', id, '--project', 'demo', '--json']);
    expect(history.stdout).toContain('confirmed still true');
  });

  it('refuses a confirmation whose next review date is not after now, writing nothing', async () => {
    const id = await remember(
      'Deploys go through the blue pipeline',
      'fact',
      '--review-after',
      '2030-06-01T00:00:00Z',
    );
    const before = logLines();
    const run = await mem([
      'items',
      'confirm',
      id,
      '--project',
      'demo',
      '--review-after',
      '2030-12-01T00:00:00Z',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('INVALID_INPUT');
    expect(run.stderr).toContain('--review-after');
    expect(logLines()).toBe(before);
  });
});

describe('the open marker of a task or thread', () => {
  it('carries `open · N days unresolved`, and past the open ceiling is held back as unresolved_expired', async () => {
    const id = await remember('Find out why the nightly build is slow', 'task');
    const now = new Date();
    const soon = new Date(now.getTime() + 3 * 86_400_000).toISOString();
    const early = json(
      await mem(['items', 'find', '--project', 'demo', '--json'], { MEM_NOW: soon }),
    ) as unknown as Found;
    expect(early.items.map((i) => [i.id, i.freshness.open_marker])).toEqual([
      [id, 'open · 3 days unresolved'],
    ]);

    // Frozen at 2031: more than OPEN_MAX_DAYS (365) after the task was written.
    const days = Math.floor(
      (Date.parse(FROZEN.MEM_NOW) - Date.parse(now.toISOString())) / 86_400_000,
    );
    const held = await find();
    expect(held.items).toEqual([]);
    expect(held.freshness_warnings).toEqual([
      expect.objectContaining({
        id,
        state: 'expired',
        reason: 'unresolved_expired',
        open_marker: expect.stringMatching(/^open · \d+ days unresolved$/),
      }),
    ]);
    const included = await find('--include-stale');
    expect(included.items.map((i) => i.id)).toEqual([id]);
    expect(included.items[0]!.freshness).toMatchObject({ state: 'expired' });
    const opened = json(await mem(['items', 'open', id, '--json']));
    expect((opened['freshness'] as { open_marker: string }).open_marker).toMatch(
      new RegExp(`^open · (${days}|${days - 1}|${days + 1}) days unresolved$`),
    );
  });

  it('drops the marker once the task is resolved', async () => {
    const id = await remember('Find out why the nightly build is slow', 'task');
    const done = await mem([
      'items',
      'resolve',
      id,
      '--project',
      'demo',
      '--status',
      'done',
      '--json',
    ]);
    expect(done.code, done.stderr).toBe(0);
    const found = await find();
    expect(found.items.map((i) => [i.id, i.freshness.open_marker])).toEqual([[id, null]]);
    expect(found.freshness_warnings).toEqual([]);
  });
});

describe('a cited source on knowledge', () => {
  it('is fresh while the file reads the same, stale once rewritten, unknown once deleted', async () => {
    const file = join(root, 'runbook.md');
    writeFileSync(file, 'Deploys go through the blue pipeline.\n');
    const id = await remember(
      'Deploys go through the blue pipeline',
      'fact',
      '--source',
      'runbook.md',
      '--source-sha256',
      sha256('Deploys go through the blue pipeline.\n'),
    );
    expect((await find()).items.map((i) => [i.id, i.freshness.state])).toEqual([[id, 'fresh']]);

    writeFileSync(file, 'Deploys go through the green pipeline.\n');
    const changed = await find();
    expect(changed.items).toEqual([]);
    expect(changed.freshness_warnings).toEqual([
      expect.objectContaining({
        id,
        state: 'stale',
        reason: 'source_changed',
        next_action: 'correct',
      }),
    ]);
    const included = await find('--include-stale');
    expect(included.items.map((i) => i.id)).toEqual([id]);
    expect(included.freshness_warnings).toEqual([expect.objectContaining({ id, delivered: true })]);

    unlinkSync(file);
    const gone = await find();
    expect(gone.freshness_warnings).toEqual([
      expect.objectContaining({ id, state: 'unknown', reason: 'source_unreadable' }),
    ]);
    const opened = await mem(['items', 'read', id, '--project', 'demo', '--json']);
    expect(json(opened)['items']).toEqual([
      expect.objectContaining({ source_uri: 'runbook.md', source_sha256: expect.any(String) }),
    ]);
  });
});

// Stop-32 walk: `--source` alone was refused, and a warning on an item named no reason and no
// command, while one whose file was deleted asked for a confirmation that never cleared it.
describe('a cited local file, its digest read by the write', () => {
  it('records the sha256 of the file as it reads now when --source-sha256 is left out', async () => {
    writeFileSync(join(root, 'runbook.md'), 'Deploys go through the blue pipeline.\n');
    const id = await remember('Deploys go blue', 'fact', '--source', 'runbook.md');
    const read = json(await mem(['items', 'read', id, '--project', 'demo', '--json']));
    expect(read['items']).toEqual([
      expect.objectContaining({
        source_uri: 'runbook.md',
        source_sha256: sha256('Deploys go through the blue pipeline.\n'),
      }),
    ]);
    expect((await find()).items.map((i) => [i.id, i.freshness.state])).toEqual([[id, 'fresh']]);
  });

  it('records a given digest that differs from the file now: stale at once, as the caller read it', async () => {
    writeFileSync(join(root, 'runbook.md'), 'Deploys go through the green pipeline.\n');
    const old = sha256('Deploys go through the blue pipeline.\n');
    const id = await remember(
      'Deploys go blue',
      'fact',
      '--source',
      'runbook.md',
      '--source-sha256',
      old,
    );
    const read = json(await mem(['items', 'read', id, '--project', 'demo', '--json']));
    expect(read['items']).toEqual([expect.objectContaining({ source_sha256: old })]);
    expect((await find()).freshness_warnings).toEqual([
      expect.objectContaining({ id, state: 'stale', reason: 'source_changed' }),
    ]);
  });

  it('a deleted cited file warns with its reason and the command that settles it; running it clears the warning', async () => {
    writeFileSync(join(root, 'runbook.md'), 'Deploys go through the blue pipeline.\n');
    const id = await remember('Deploys go blue', 'fact', '--source', 'runbook.md');
    unlinkSync(join(root, 'runbook.md'));
    const text = await mem(['items', 'find', '--project', 'demo']);
    const command = `mem items update ${id} --project demo --source PATH --reason TEXT`;
    expect(text.stdout + text.stderr).toContain(
      `held back ${id}: unknown (source_unreadable; next: correct — ${command}`,
    );
    // A confirmation leaves the file unread: still held back, so it is not what is asked for.
    const confirmed = await mem([
      ...['items', 'confirm', id, '--project', 'demo'],
      ...['--review-after', '2032-01-01T00:00:00Z', '--reason', 'checked'],
    ]);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((await find()).freshness_warnings).toEqual([
      expect.objectContaining({ id, reason: 'source_unreadable', next_action: 'correct' }),
    ]);
    // The command as printed, PATH and TEXT filled in: fresh again.
    writeFileSync(join(root, 'deploy.md'), 'Deploys go through the blue pipeline.\n');
    const filled = command.replace('PATH', 'deploy.md').replace('TEXT', 'moved').split(' ');
    const corrected = await mem(filled.slice(1));
    expect(corrected.code, corrected.stderr).toBe(0);
    const after = await find();
    expect(after.freshness_warnings).toEqual([]);
    expect(after.items.map((i) => i.id)).toEqual([id]);
  });
});

// Stop-29 walk: T0 and T1 judged knowledge by its dates only, so a fact whose cited file changed
// was held back by find_items and delivered without a word by orient and open.
describe('a cited source in orient (T0) and open (T1)', () => {
  it('warns of a changed or deleted cited file as find_items does, delivered', async () => {
    const file = join(root, 'runbook.md');
    writeFileSync(file, 'Deploys go through the blue pipeline.\n');
    const cites = ['--source', 'runbook.md', '--source-sha256', sha256(readFileSync(file, 'utf8'))];
    const thread = await remember('Deploy pipeline work', 'thread');
    const loaded = await remember('Deploys go through the blue pipeline', 'fact', ...cites);
    const anchored = await remember(
      'The blue pipeline runs at night',
      'fact',
      '--anchor',
      thread,
      ...cites,
    );
    type Warned = { freshness_warnings: Record<string, unknown>[] };
    const orient = async () =>
      json(await mem(['orient', '--project', 'demo', '--json'])) as unknown as Warned;
    const open = async () =>
      json(
        await mem(['items', 'open', thread, '--project', 'demo', '--json']),
      ) as unknown as Warned;
    /** find_items' warning for `id`, delivered as orient and open deliver it. */
    const found = async (id: string) =>
      (await find('--include-stale')).freshness_warnings.filter((w) => w.id === id);
    expect((await orient()).freshness_warnings).toEqual([]);
    expect((await open()).freshness_warnings).toEqual([]);

    writeFileSync(file, 'Deploys go through the green pipeline.\n');
    const changed = await found(loaded);
    expect(changed).toEqual([
      expect.objectContaining({ reason: 'source_changed', delivered: true }),
    ]);
    expect((await orient()).freshness_warnings).toEqual(changed);
    const changedAnchored = await found(anchored);
    expect(changedAnchored).toHaveLength(1);
    expect((await open()).freshness_warnings).toEqual(changedAnchored);

    unlinkSync(file);
    const gone = await found(loaded);
    expect(gone).toEqual([expect.objectContaining({ reason: 'source_unreadable' })]);
    expect((await orient()).freshness_warnings).toEqual(gone);
    expect((await open()).freshness_warnings).toEqual(await found(anchored));
  });
});

describe('bad freshness input', () => {
  const refused = async (args: string[], field: string) => {
    await remember('A seed fact so the log exists', 'fact');
    const before = logLines();
    const run = await mem(args);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('INVALID_INPUT');
    expect(run.stderr).toContain(field);
    expect(logLines()).toBe(before);
  };

  it('refuses a review date on a task, naming the field and the types it applies to', async () => {
    await refused(
      [
        'remember',
        'Fix the build',
        '--type',
        'task',
        '--project',
        'demo',
        '--review-after',
        '2030-01-01T00:00:00Z',
      ],
      '--review-after does not apply to a task',
    );
  });

  it('refuses a malformed digest', async () => {
    await refused(
      [
        'remember',
        'Deploys go blue',
        '--type',
        'fact',
        '--project',
        'demo',
        '--source',
        'runbook.md',
        '--source-sha256',
        'abc123',
      ],
      // The CLI names the flag the user typed, and what is wrong with its value.
      '--source-sha256: expected a sha256 digest',
    );
  });

  it('refuses a cited URI that is not a local file without its digest', async () => {
    await refused(
      [
        'remember',
        'Deploys go blue',
        '--type',
        'fact',
        '--project',
        'demo',
        '--source',
        'https://wiki.example/runbook',
      ],
      // The flags the user typed, not the fields they feed (source_uri, source_sha256).
      '--source and --source-sha256 together for a URI that is not a local file',
    );
  });

  // Stop-32 walk: a write citing a file that was not there passed, and the item stayed held
  // back for good: its next action was `confirm`, and a confirmation leaves the file unread.
  it('refuses a cited local file that cannot be read now, with or without its digest', async () => {
    const cite = ['remember', 'Deploy with make deploy', '--type', 'fact', '--project', 'demo'];
    const says = '--source: docs/nope.md: cannot be read now (missing, not a regular file';
    await refused([...cite, '--source', 'docs/nope.md', '--source-sha256', 'a'.repeat(64)], says);
    await refused([...cite, '--source', 'docs/nope.md'], says);
    await refused([...cite, '--source', '.'], '--source: .: cannot be read now');
  });

  it('refuses a cited path outside the data root, naming the flag', async () => {
    await refused(
      [
        'remember',
        'Deploys go blue',
        '--type',
        'fact',
        '--project',
        'demo',
        '--source',
        '../elsewhere/runbook.md',
        '--source-sha256',
        sha256('Deploys go blue.\n'),
      ],
      // The rule that failed (stop 32), not one sentence for every refusal.
      '--source: ../elsewhere/runbook.md: leaves the data root',
    );
  });

  it('refuses a review date on a task through update too', async () => {
    const task = await remember('Fix the build', 'task');
    await refused(
      [
        'items',
        'update',
        task,
        '--project',
        'demo',
        '--review-after',
        '2030-01-01T00:00:00Z',
        '--reason',
        'x',
      ],
      '--review-after does not apply to a task',
    );
  });
});
