import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logBytes } from './support/data-root.js';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 13 §5 through the CLI on a real data root: find_items orders by relevance bands, then
 * pins, then recency fused with relevance (a temporal cue doubles recency); archived items
 * leave a find unless asked; every found item carries its ranking block.
 */
let root: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);

interface Found {
  items: {
    id: string;
    summary: string;
    attention: string;
    ranking: {
      band: number;
      relevance_rank: number;
      recency_rank: number;
      usage_rank: number | null;
      pinned: boolean;
      temporal_cue: string | null;
      fused_score_micro: number;
    };
  }[];
}

async function remember(text: string): Promise<string> {
  const run = await mem('remember', text, '--type', 'fact', '--project', 'demo', '--json');
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { ids: string[] }).ids[0]!;
}

async function find(...args: string[]): Promise<Found> {
  const run = await mem('items', 'find', '--project', 'demo', '--json', ...args);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Found;
}

const summaries = (found: Found) => found.items.map((i) => i.summary);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-rank-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('find_items ranking (issue 13 §5)', () => {
  it('orders matches of equal relevance newest first, with a ranking block', async () => {
    await remember('Deploy staging with the blue script');
    await remember('Deploy staging with the green script');
    const found = await find('--query', 'staging');
    expect(summaries(found)).toEqual([
      'Deploy staging with the green script',
      'Deploy staging with the blue script',
    ]);
    expect(found.items[0]!.attention).toBe('active');
    expect(found.items[0]!.ranking).toMatchObject({
      relevance_rank: 1,
      recency_rank: 1,
      usage_rank: null,
      pinned: false,
      temporal_cue: null,
    });
    expect(found.items[1]!.ranking).toMatchObject({ relevance_rank: 1, recency_rank: 2 });
    expect(Number.isInteger(found.items[0]!.ranking.fused_score_micro)).toBe(true);
  });

  it('a temporal cue doubles recency but never lifts a weaker newer match over a stronger older one', async () => {
    await remember('tokenizer tokenizer splits hyphens');
    await remember('tokenizer splits quotes and dashes');
    expect(summaries(await find('--query', 'tokenizer'))).toEqual([
      'tokenizer tokenizer splits hyphens',
      'tokenizer splits quotes and dashes',
    ]);
    const cued = await find('--query', 'latest tokenizer');
    // Relevance first: a BM25 rank apart is another band, whatever the cue.
    expect(summaries(cued)).toEqual([
      'tokenizer tokenizer splits hyphens',
      'tokenizer splits quotes and dashes',
    ]);
    expect(cued.items[0]!.ranking.temporal_cue).toBe('latest');
  });

  it('a pin leads its band and never rises above a stronger match', async () => {
    await remember('rollout rollout rollout checklist');
    await remember('rollout rollout checklist notes');
    const pinned = await remember('rollout notes for the staging hosts');
    await remember('rollout notes for the canary hosts');
    expect(summaries(await find('--query', 'rollout')).slice(2)).toEqual([
      'rollout notes for the canary hosts',
      'rollout notes for the staging hosts',
    ]);
    const pin = await mem('items', 'pin', pinned, '--project', 'demo', '--json');
    expect(pin.code, pin.stderr).toBe(0);
    const found = await find('--query', 'rollout');
    expect(summaries(found).slice(2)).toEqual([
      'rollout notes for the staging hosts',
      'rollout notes for the canary hosts',
    ]);
    expect(found.items[2]!.ranking.pinned).toBe(true);
    expect(found.items[1]!.ranking.band).toBeGreaterThan(found.items[2]!.ranking.band);
    // Pinned again: nothing to write.
    const before = logBytes(root, 'demo');
    expect((await mem('items', 'pin', pinned, '--project', 'demo')).code).toBe(0);
    expect(logBytes(root, 'demo')).toBe(before);
  });

  it('an archived item leaves a find by default and returns when asked', async () => {
    const kept = await remember('Release notes are written by hand');
    const archived = await remember('Release notes used a generator once');
    const set = await mem('items', 'attention', archived, 'archive', '--project', 'demo');
    expect(set.code, set.stderr).toBe(0);
    expect((await find('--query', 'release')).items.map((i) => i.id)).toEqual([kept]);
    expect((await find()).items.map((i) => i.id)).toEqual([kept]);
    const all = await find('--query', 'release', '--include-archive');
    expect(all.items.map((i) => i.id).sort()).toEqual([kept, archived].sort());
    const only = await find('--attention', 'archive');
    expect(only.items.map((i) => [i.id, i.attention])).toEqual([[archived, 'archive']]);
    // The projection is the log's: a fresh rebuild holds the same bytes (a real process).
    const verify = memProcess(['--root', root, 'verify', '--project', 'demo']);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });

  it('refuses an unknown tier or id, typed, and writes nothing', async () => {
    const id = await remember('A fact to file');
    const before = logBytes(root, 'demo');
    const cases: [string[], string][] = [
      [['items', 'attention', id, 'someday', '--project', 'demo'], 'attention'],
      [['items', 'attention', 'it-000000000000', 'archive', '--project', 'demo'], 'NOT_FOUND'],
      [['items', 'pin', 'it-000000000000', '--project', 'demo'], 'NOT_FOUND'],
      [['items', 'unpin', 'nope', '--project', 'demo'], 'id'],
      [['items', 'find', '--attention', 'someday'], 'attention'],
    ];
    for (const [args, says] of cases) {
      const run = await mem(...args);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toContain(says);
    }
    const unknown = await mem('items', 'attention', id, 'someday', '--project', 'demo', '--json');
    expect(unknown.stderr).toContain('INVALID_INPUT');
    expect(logBytes(root, 'demo')).toBe(before);
  });
});
