import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { beforeEach, describe, expect, it } from 'vitest';
import { contentSha256, sha256Hex, uniformLines } from '@mem/core';
import { appendedInProcess, memInProcess } from './support/mem-cli.js';
import { seededRoots } from './support/seeded-root.js';

/*
 * Issue 12: a forgotten line refuses its own return, through `mem` (in process) on a real data
 * root. The removed text is the one thing the ledger must never repeat.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const FORGOTTEN_LINE =
  'CI flake: pg container raced its volume mount; fixed with a pg_isready readiness probe.';
const EVIDENCE = '94af7d3928e418e68468ee1a6aa51d19d8fc97bc6a24b762923b4f52a4370391';
let root: string;

// In process: the cases are about what the command does, not about processes.
const mem = (args: string[], input?: string) => memInProcess(['--root', root, ...args], { input });

/** An L1 memory of `text` resting on the fixture's second evidence, as `mem log append` takes it. */
function memoryFile(text: string, t = 9): string {
  const payload = {
    type: 'memory',
    run_id: 'run-2026-08-17-infra-1',
    level: 'L1',
    t,
    text,
    tokens: 20,
    parents: [EVIDENCE],
    sha256: contentSha256(text),
    lines: uniformLines(text, [EVIDENCE]),
  };
  const file = join(root, `memory-${t}.jsonl`);
  writeFileSync(file, `${JSON.stringify(payload)}\n`);
  return file;
}

function logText(): string {
  const dir = join(root, 'log', 'demo');
  return readdirSync(dir)
    .sort()
    .map((segment) => readFileSync(join(dir, segment), 'utf8'))
    .join('');
}

/** The memory_vector rows of `sha`, by kind, read from the embedded Postgres once `mem` has exited. */
async function vectorKinds(sha: string): Promise<string[]> {
  const db = await PGlite.create(join(root, '.mem', 'pg'), { extensions: { vector } });
  try {
    const rows = await db.query<{ kind: string }>(
      'SELECT kind FROM mem.memory_vector WHERE node_sha = $1 ORDER BY kind, level',
      [sha],
    );
    return rows.rows.map((r) => r.kind);
  } finally {
    await db.close();
  }
}

/** Whether an embedding cache file under the data root holds a vector keyed by `text`'s sha256. */
function cachedVectorOf(text: string): boolean {
  const dir = join(root, '.mem', 'cache', 'embeddings');
  const key = Buffer.from(sha256Hex(text), 'hex');
  return readdirSync(dir).some((file) => readFileSync(join(dir, file)).includes(key));
}

const events = () =>
  logText()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

// The sample appended once for the file; each case forgets and re-adds in its own copy.
const seeded = seededRoots('mem-forget-', (seed) => appendedInProcess(seed, sample));
beforeEach(() => {
  root = seeded();
});

async function forgetLine() {
  const prefix = contentSha256(FORGOTTEN_LINE).slice(0, 10);
  const result = await mem([
    'forget',
    prefix,
    '--project',
    'demo',
    '--reason',
    'the probe was reverted',
    '--json',
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as {
    target: string;
    target_kind: string;
    before_sha256: string;
    seq: number;
  };
}

describe('mem forget', () => {
  it('tombstones a line by sha prefix; re-appending its exact text is FORGOTTEN naming the tombstone, and appends nothing', async () => {
    const out = await forgetLine();
    expect(out).toMatchObject({
      target: contentSha256(FORGOTTEN_LINE),
      target_kind: 'line',
      before_sha256: contentSha256(FORGOTTEN_LINE),
    });
    const before = logText();
    const again = await mem([
      'log',
      'append',
      '--project',
      'demo',
      '--file',
      memoryFile(`- ${FORGOTTEN_LINE}`),
      '--json',
    ]);
    expect(again.code).toBe(1);
    const error = (
      JSON.parse(again.stderr) as {
        error: { code: string; details: { tombstone: string; match: string } };
      }
    ).error;
    expect(error.code).toBe('FORGOTTEN');
    expect(error.details).toMatchObject({ tombstone: out.target, match: 'exact' });
    expect(logText()).toBe(before);
  });

  it('takes the forgotten line out of the answers of mem query', async () => {
    const ask = async () =>
      JSON.parse(
        (
          await mem([
            'query',
            'pg container volume mount readiness probe',
            '--project',
            'demo',
            '--json',
          ])
        ).stdout,
      ) as { results: { sha256: string; level: string }[] };
    const target = contentSha256(FORGOTTEN_LINE);
    expect((await ask()).results.map((r) => r.sha256)).toContain(target);
    await forgetLine();
    const after = (await ask()).results.map((r) => r.sha256);
    expect(after).not.toContain(target);
  });

  it('deletes the forgotten line’s vectors from the embedded Postgres, and a rebuild from the log writes none back', async () => {
    const target = contentSha256(FORGOTTEN_LINE);
    expect(await vectorKinds(target)).toContain('text');
    await forgetLine();
    expect(await vectorKinds(target)).toEqual([]);
    expect((await mem(['rebuild', '--from-log'])).code).toBe(0);
    expect(await vectorKinds(target)).toEqual([]);
  });

  it('drops the forgotten text’s vector from the embedding cache, and a rebuild from the log does not put it back', async () => {
    expect(cachedVectorOf(FORGOTTEN_LINE)).toBe(true);
    await forgetLine();
    expect(cachedVectorOf(FORGOTTEN_LINE)).toBe(false);
    expect((await mem(['rebuild', '--from-log'])).code).toBe(0);
    expect(cachedVectorOf(FORGOTTEN_LINE)).toBe(false);
  });

  it('forgets the copies of the line too: the same statement in another memory leaves the answers with it', async () => {
    const copy = `[infra] ${FORGOTTEN_LINE}`;
    expect(
      (await mem(['log', 'append', '--project', 'demo', '--file', memoryFile(`- ${copy}`, 11)]))
        .code,
    ).toBe(0);
    await forgetLine();
    const refused = (events().at(-1) as { refuses: { sha256: string }[] }).refuses.map(
      (line) => line.sha256,
    );
    expect(refused).toEqual([contentSha256(FORGOTTEN_LINE), contentSha256(copy)]);
    const answer = JSON.parse(
      (
        await mem([
          'query',
          'pg container volume mount readiness probe',
          '--project',
          'demo',
          '--json',
        ])
      ).stdout,
    ) as { results: { sha256: string }[] };
    expect(answer.results.map((r) => r.sha256)).not.toContain(contentSha256(copy));
  });

  it('refuses a reworded re-add, and writes it with --force, recording a resurfaced event', async () => {
    const out = await forgetLine();
    const reworded = memoryFile(
      'The pg container raced the volume mount in CI; a pg_isready probe fixed the flake.',
    );
    const refused = await mem(['log', 'append', '--project', 'demo', '--file', reworded]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[FORGOTTEN]');
    expect(refused.stderr).toContain(out.target);
    const unrelated = await mem([
      'log',
      'append',
      '--project',
      'demo',
      '--file',
      memoryFile('Deploys run from the main branch only, after review.', 10),
    ]);
    expect(unrelated.code).toBe(0);
    const forced = await mem([
      'log',
      'append',
      '--project',
      'demo',
      '--file',
      reworded,
      '--force',
      '--json',
    ]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ appended: 2 });
    expect(events().at(-1)).toMatchObject({
      type: 'resurfaced',
      tombstone: out.target,
      match: 'reword',
    });
  });

  it('refuses superseding by a forgotten text (FORGOTTEN, nothing appended) and writes it with --force, recording a resurfaced event', async () => {
    const out = await forgetLine();
    const other = 'Deploys run from the main branch only, after review.';
    expect(
      (await mem(['log', 'append', '--project', 'demo', '--file', memoryFile(`- ${other}`)])).code,
    ).toBe(0);
    const supersede = async (...extra: string[]) =>
      await mem([
        'supersede',
        other,
        '--by',
        FORGOTTEN_LINE,
        '--project',
        'demo',
        '--reason',
        'the probe is back',
        '--json',
        ...extra,
      ]);
    const before = logText();
    const refused = await supersede();
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      code: 'FORGOTTEN',
      details: { tombstone: out.target },
    });
    expect(logText()).toBe(before);
    const forced = await supersede('--force');
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({
      type: 'superseded',
      target: contentSha256(other),
      after_sha256: contentSha256(FORGOTTEN_LINE),
    });
    expect(
      events()
        .slice(-2)
        .map((e) => e['type']),
    ).toEqual(['superseded', 'resurfaced']);
    expect(events().at(-1)).toMatchObject({ tombstone: out.target, match: 'exact' });
  });

  it('refuses forgetting twice, an unknown ref and a missing reason — each typed, nothing appended', async () => {
    await forgetLine();
    const before = logText();
    const twice = await mem([
      'forget',
      FORGOTTEN_LINE,
      '--project',
      'demo',
      '--reason',
      'again',
      '--json',
    ]);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stderr).error.code).toBe('CONFLICT');
    const unknown = await mem([
      'forget',
      'ffffffffff',
      '--project',
      'demo',
      '--reason',
      'x',
      '--json',
    ]);
    expect(JSON.parse(unknown.stderr).error.code).toBe('NOT_FOUND');
    const noReason = await mem(['forget', FORGOTTEN_LINE, '--project', 'demo', '--json']);
    expect(noReason.code).toBe(2);
    expect(JSON.parse(noReason.stderr).error.code).toBe('INVALID_INPUT');
    expect(logText()).toBe(before);
  });

  it('history lists the mutation with hashes, actor and reason, and neither it nor the forgotten event holds the text', async () => {
    const out = await forgetLine();
    const shown = await mem(['history', out.target, '--project', 'demo', '--json']);
    expect(shown.code).toBe(0);
    const history = JSON.parse(shown.stdout) as {
      entries: { type: string; reason: string; before_sha256: string; actor: string | null }[];
    };
    expect(history.entries).toHaveLength(1);
    expect(history.entries[0]).toMatchObject({
      type: 'forgotten',
      reason: 'the probe was reverted',
      before_sha256: out.target,
    });
    expect(history.entries[0]!.actor).not.toBeNull();
    const text = (await mem(['history', out.target, '--project', 'demo'])).stdout;
    const mutations = logText()
      .split('\n')
      .filter((line) => line.includes('"type":"forgotten"'));
    expect(mutations).toHaveLength(1);
    for (const printed of [shown.stdout, text, ...mutations]) {
      expect(printed).not.toContain('pg_isready');
      expect(printed).not.toContain('volume mount');
    }
  });
});
