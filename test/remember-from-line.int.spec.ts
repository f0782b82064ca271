import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryPayloads } from './api/support.js';
import { jsonlFile, logBytes } from './support/data-root.js';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 13 §1: `mem remember --from-line` promotes an extracted memory line to a fact or rule
 * whose provenance cites the line (its memory, note, sha256 and the line's own citations); an
 * unknown, forgotten or superseded line, a memory of several lines and a work type are refused,
 * nothing written. The line stays; a later forget of it does not delete the fact.
 */
let root: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);
const json = (run: { stdout: string }) => JSON.parse(run.stdout) as Record<string, any>;

const KEPT = 'The theme loader caches parsed themes under .cache/themes';
const GONE = 'The loader retried every theme three times';
const OLD = 'The loader reads themes synchronously';
const memories = {
  kept: memoryPayloads('run-kept', `Seen: ${KEPT}`, KEPT, 'cache'),
  gone: memoryPayloads('run-gone', `Seen: ${GONE}`, GONE, 'retries'),
  old: memoryPayloads('run-old', `Seen: ${OLD}`, OLD, 'io'),
};

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-promote-'));
  const payloads = Object.values(memories).flatMap((m) => m.payloads);
  const file = jsonlFile(root, payloads, 'payloads.jsonl');
  expect((await mem('log', 'append', '--project', 'demo', '--file', file)).code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem remember --from-line', () => {
  it('promotes the line mem query printed to a fact citing it; items read and history show it; a later forget of the line leaves the fact', async () => {
    const asked = json(await mem('query', 'theme cache', '--project', 'demo', '--json'));
    const hit = (asked['results'] as { kind: string; text: string; sha256: string }[]).find(
      (h) => h.text === KEPT,
    )!;
    expect(hit.kind).toBe('line');
    // The 12-hex prefix `mem query` prints.
    const ref = hit.sha256.slice(0, 12);
    const promoted = await mem(
      'remember',
      '--from-line',
      ref,
      '--type',
      'fact',
      '--project',
      'demo',
      '--reason',
      'we rely on it',
      '--json',
    );
    expect(promoted.code).toBe(0);
    const [id] = json(promoted)['ids'] as string[];

    const fromLine = {
      sha256: hit.sha256,
      level: 'L1',
      memory: memories.kept.memory,
      note: 'demo/cache.md',
      citations: [{ level: 'L0', sha256: memories.kept.evidence }],
    };
    const read = await mem('items', 'read', id!, '--project', 'demo', '--json');
    expect(json(read)['items'][0]).toMatchObject({
      id,
      type: 'fact',
      summary: KEPT,
      from_line: fromLine,
    });
    const text = await mem('items', 'read', id!, '--project', 'demo');
    expect(text.stdout).toContain(`from line ${hit.sha256.slice(0, 12)} in demo/cache.md`);
    const history = json(await mem('history', id!, '--project', 'demo', '--json'));
    expect(history['entries'][0]).toMatchObject({
      type: 'item_added',
      reason: 'we rely on it',
      from_line: fromLine,
    });

    // The line itself stays; forgetting it later does not delete the fact that cites it.
    expect(
      (await mem('forget', ref, '--project', 'demo', '--reason', 'said as a fact now')).code,
    ).toBe(0);
    const after = json(await mem('items', 'read', id!, '--project', 'demo', '--json'));
    expect(after['items'][0]).toMatchObject({ id, deleted: false, from_line: fromLine });
  });

  it('refuses an unknown, forgotten or superseded line and a work type, writing nothing', async () => {
    const gone = memories.gone.memory;
    expect(
      (await mem('forget', gone.slice(0, 12), '--project', 'demo', '--reason', 'wrong')).code,
    ).toBe(0);
    const by = 'The loader reads themes asynchronously';
    expect(
      (
        await mem(
          'supersede',
          memories.old.memory,
          '--by',
          by,
          '--project',
          'demo',
          '--reason',
          'async now',
        )
      ).code,
    ).toBe(0);
    const before = logBytes(root, 'demo');
    const refusals: [string[], string, string][] = [
      [['--from-line', 'ffffffffffff', '--type', 'fact'], 'NOT_FOUND', '--from-line'],
      [['--from-line', gone.slice(0, 12), '--type', 'fact'], 'CONFLICT', 'forgotten'],
      [['--from-line', memories.old.memory, '--type', 'rule'], 'CONFLICT', 'superseded'],
      [['--from-line', memories.kept.memory, '--type', 'task'], 'INVALID_INPUT', 'fact or rule'],
    ];
    for (const [flags, code, named] of refusals) {
      const refused = await mem('remember', ...flags, '--project', 'demo');
      expect(refused.code, flags.join(' ')).not.toBe(0);
      expect(refused.stderr).toContain(code);
      expect(refused.stderr).toContain(named);
      expect(logBytes(root, 'demo')).toBe(before);
    }
  });

  it('the built bin promotes in a real process, and refuses neither text nor --from-line with exit 2', () => {
    const promoted = memProcess([
      '--root',
      root,
      'remember',
      '--from-line',
      memories.kept.memory,
      '--type',
      'fact',
      '--project',
      'demo',
      '--json',
    ]);
    expect(promoted.code).toBe(0);
    expect(JSON.parse(promoted.stdout)['ids']).toHaveLength(1);
    const before = logBytes(root, 'demo');
    const bare = memProcess(['--root', root, 'remember', '--type', 'fact', '--project', 'demo']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('INVALID_INPUT');
    expect(logBytes(root, 'demo')).toBe(before);
  });
});
