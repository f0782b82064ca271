import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * `mem query` and `mem eval retrieval` in process (sources, not dist): exit codes, the JSON
 * shape, the readable list with citations, abstention and usage errors. The cases only read, so
 * they share one data root (each root's first append opens a new PGlite, seconds on a loaded box);
 * after each case the demo log is checked unchanged, so a case that wrote would fail here.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
let root: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args], { cwd: root });
const memWith = (env: Record<string, string>, ...args: string[]) =>
  memInProcess(['--root', root, ...args], { env, cwd: root });

let demoLog: Buffer;
const demoSegment = () => join(root, 'log', 'demo', '000001.jsonl');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-cli-query-'));
  expect((await mem('log', 'append', '--project', 'demo', '--file', sample)).code).toBe(0);
  demoLog = readFileSync(demoSegment());
});
afterEach(() => expect(readFileSync(demoSegment()).equals(demoLog)).toBe(true));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mem query', () => {
  it('--json prints {results, abstained, recall}: each result with level, sha256, project, text, score, tier, ranking, parents', async () => {
    const result = await mem(
      'query',
      'why did requests over 10KB fail?',
      '--project',
      'demo',
      '--json',
    );
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as {
      results: Record<string, unknown>[];
      abstained: boolean;
      recall: Record<string, unknown>;
    };
    expect(body.abstained).toBe(false);
    // The CLI keeps the embedded pgvector projection (PGlite, hash embedder): vector recall runs.
    expect(body.recall).toMatchObject({
      signals: ['keyword', 'vector_text', 'vector_symptom'],
      vector: 'used',
      projects: ['demo'],
      levels: ['L1', 'L2', 'I'],
    });
    const first = body.results[0]!;
    expect(first).toMatchObject({
      level: 'L1',
      project: 'demo',
      tier: 'memory',
      ranking: { keyword: { rank: 1 }, floor_passed_by: ['keyword'] },
    });
    expect(first['text']).toContain('Kong buffered the body');
    expect(first['parents']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'L0',
          source: 'claude:0b7f4f9e-session',
          t: 2,
          text: expect.stringContaining('413 Request Entity Too Large'),
        }),
      ]),
    );
    expect(result.stderr).not.toContain('keyword recall only');
  });

  it('uses MEM_QUERY_FLOOR_SIMILARITY and MEM_FUSION_WEIGHTS and says so in recall; a bad one is a config error', async () => {
    const result = await memWith(
      { MEM_QUERY_FLOOR_SIMILARITY: '0.7', MEM_FUSION_WEIGHTS: 'vector_text=0.5' },
      'query',
      'why did requests over 10KB fail?',
      '--project',
      'demo',
      '--json',
    );
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { recall: Record<string, unknown> };
    expect(body.recall).toMatchObject({
      vector: 'used',
      floor: { minSimilarity: 0.7, minCoverage: 0.34, minKeyword: 1.5 },
      weights: { keyword: 1, vector_text: 0.5, vector_symptom: 1 },
    });
    const bad = await memWith(
      { MEM_FUSION_WEIGHTS: 'vector=2' },
      'query',
      'kong',
      '--project',
      'demo',
      '--json',
    );
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stderr).error).toMatchObject({
      code: 'CONFIG_INVALID',
      details: { variable: 'MEM_FUSION_WEIGHTS' },
    });
  });

  it('prints a readable list with citations', async () => {
    const result = await mem(
      'query',
      'Kong body buffering',
      '--project',
      'demo',
      '--levels',
      'L1,L2',
    );
    expect(result.code).toBe(0);
    // The header counts the hits under the relevance floor apart when there are any.
    expect(result.stdout).toMatch(
      /^\d+ results? in demo at L1, L2(; \d+ clears? the relevance floor, \d+ below it)?\n/,
    );
    expect(result.stdout).toMatch(/1\. \[L\d memory\] demo/);
    expect(result.stdout).toContain(
      'cites L0 claude:0b7f4f9e-session t2: POST /upload returned 413',
    );
  });

  it('abstains with exit 0 on an unrelated question', async () => {
    const text = await mem('query', 'How do I descale an espresso machine?');
    expect(text).toMatchObject({
      code: 0,
      stdout: 'insufficient recall: nothing in demo at L1, L2, I clears the relevance floor\n',
    });
    const json = JSON.parse(
      (await mem('query', 'How do I descale an espresso machine?', '--json')).stdout,
    );
    expect(json).toMatchObject({ results: [], abstained: true, reason: 'insufficient recall' });
  });

  it('hostile text is words: no error', async () => {
    for (const text of ['"NEAR(kong', 'text:kong*', 'proxy-body-size', '-', 'AND OR NOT'])
      expect((await mem('query', text, '--json')).code).toBe(0);
  });

  it('refuses bad flags with exit 2 and changes nothing', async () => {
    expect((await mem('query', 'kong', '--levels', 'L3')).code).toBe(2);
    expect((await mem('query', 'kong', '--levels', '')).code).toBe(2);
    expect((await mem('query', 'kong', '--limit', '0')).code).toBe(2);
    expect((await mem('query', 'kong', '--limit', '101')).code).toBe(2);
    expect((await mem('query', 'kong', '--project', 'Bad Name')).code).toBe(2);
    expect((await mem('query', '   ')).code).toBe(2);
    // The query operation's schema refused it, as over HTTP: its code, the field, and the flag named.
    const usage = await mem('query', 'kong', '--levels', 'L3', '--json');
    expect(JSON.parse(usage.stderr).error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^--levels: /),
      details: { field: 'level[0]' },
    });
  });
});

/** The sample batch with its Kong evidence grown to a whole chunk's size (about 24 KB), under new content identity. */
function longEvidenceBatch(): { file: string; chars: number } {
  const text = readFileSync(sample, 'utf8');
  const short =
    'POST /upload returned 413 Request Entity Too Large for bodies over 10KB. Kong buffered the request body; setting proxy-body-size: 0 on the ingress fixed it.';
  const long =
    `${short} ${'The ingress log repeats the buffered body warning for every retried upload. '.repeat(320)}`.trim();
  const file = join(root, 'long.jsonl');
  writeFileSync(
    file,
    text.replace(short, long).replaceAll(contentSha256(short), contentSha256(long)),
  );
  return { file, chars: [...long].length };
}

describe('mem query --citations', () => {
  let chars: number;
  beforeAll(async () => {
    const batch = longEvidenceBatch();
    chars = batch.chars;
    expect((await mem('log', 'append', '--project', 'long', '--file', batch.file)).code).toBe(0);
  });

  type Parent = { level: string; text: string; text_chars?: number };
  const parentsOf = (stdout: string) =>
    (JSON.parse(stdout) as { results: { parents: Parent[] }[] }).results.flatMap((r) => r.parents);

  it('--json --limit 1 cites excerpts by default, as HTTP does: small, with the whole text counted', async () => {
    const result = await mem(
      'query',
      'why did requests over 10KB fail?',
      '--project',
      'long',
      '--json',
      '--limit',
      '1',
    );
    expect(result.code).toBe(0);
    const parents = parentsOf(result.stdout);
    expect(parents.some((p) => p.text_chars === chars)).toBe(true);
    for (const parent of parents) expect([...parent.text].length).toBeLessThanOrEqual(401);
    expect(result.stdout.length).toBeLessThan(8_000);
  });

  it('--citations full cites the whole chunk, none cites nothing', async () => {
    const full = await mem(
      'query',
      'why did requests over 10KB fail?',
      '--project',
      'long',
      '--json',
      '--limit',
      '1',
      '--citations',
      'full',
    );
    expect(full.code).toBe(0);
    expect(
      parentsOf(full.stdout).some(
        (p) => [...p.text].length === chars && p.text_chars === undefined,
      ),
    ).toBe(true);
    const none = await mem(
      'query',
      'why did requests over 10KB fail?',
      '--project',
      'long',
      '--json',
      '--limit',
      '1',
      '--citations',
      'none',
    );
    expect(none.code).toBe(0);
    expect(parentsOf(none.stdout)).toEqual([]);
  });

  it('refuses another --citations with exit 2, naming the flag and the choices', async () => {
    const result = await mem('query', 'kong', '--citations', 'some', '--json');
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^--citations: /),
      details: { field: 'citations', expected: 'one of "excerpt", "full", "none"' },
    });
    // Said as the flag and what is wrong with its value, not as zod's words for the field.
    expect(JSON.parse(result.stderr).error.message).toBe(
      '--citations: expected one of "excerpt", "full", "none", got "some"',
    );
    const limit = await mem('query', 'kong', '--limit', 'many', '--json');
    expect(JSON.parse(limit.stderr).error.message).toBe('--limit: expected number, got "many"');
  });
});

describe('mem eval retrieval', () => {
  it('refuses a bad --k with exit 2', async () => {
    expect(
      (
        await mem(
          'eval',
          'retrieval',
          '--locomo',
          join(repo, 'test', 'fixtures', 'locomo', 'locomo10.json'),
          '--k',
          '5,0',
        )
      ).code,
    ).toBe(2);
  });

  it('--floor and --weights sweep every setting: one printed row each; bad ones are usage errors (exit 2)', async () => {
    const locomo = join(repo, 'test', 'fixtures', 'locomo', 'locomo10.json');
    const result = await mem(
      'eval',
      'retrieval',
      '--locomo',
      locomo,
      '--limit',
      '3',
      '--k',
      '5',
      '--floor',
      '0.4,0.6',
      '--weights',
      'vector_text=0.1;vector_text=1',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('sweep (4 settings):');
    const rows = result.stdout
      .split('\n')
      .filter((line) => /^\s+floor \S+ weights \S+\s.*abstained \d+$/.test(line));
    expect(rows.map((line) => line.trim().split(/\s+/).slice(0, 4).join(' '))).toEqual([
      'floor 0.4 weights 1/0.1/1',
      'floor 0.4 weights 1/1/1',
      'floor 0.6 weights 1/0.1/1',
      'floor 0.6 weights 1/1/1',
    ]);
    for (const bad of [
      ['--floor', '0.4,2'],
      ['--floor', 'high'],
      ['--weights', 'vector=1'],
      ['--weights', 'keyword=1;'],
    ]) {
      const refused = await mem('eval', 'retrieval', '--locomo', locomo, ...bad);
      expect(refused.code, bad.join(' ')).toBe(2);
      expect(refused.stderr).toContain(bad[0]);
    }
  }, 180_000);

  it('a missing file is a runtime error naming it (exit 1)', async () => {
    const result = await mem('eval', 'retrieval', '--locomo', 'nope.json', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'NOT_FOUND',
      details: { file: expect.stringMatching(/\/nope\.json$/) },
    });
  });
});
