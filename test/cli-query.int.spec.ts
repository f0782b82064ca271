import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '@mem/cli';

/*
 * `mem query` and `mem eval retrieval` in process (sources, not dist): exit codes, the JSON
 * shape, the readable list with citations, abstention and usage errors.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
let root: string;

async function mem(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const code = await main(['node', 'mem', '--root', root, ...args], { stdin: Readable.from([]), stdout, stderr, env: { PATH: process.env['PATH'] ?? '' }, cwd: root });
  return { code, stdout: out, stderr: err };
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-cli-query-'));
  expect((await mem('log', 'append', '--project', 'demo', '--file', sample)).code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem query', () => {
  it('--json prints {results, abstained, recall}: each result with level, sha256, project, text, score, tier, ranking, parents', async () => {
    const result = await mem('query', 'why did requests over 10KB fail?', '--project', 'demo', '--json');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { results: Record<string, unknown>[]; abstained: boolean; recall: Record<string, unknown> };
    expect(body.abstained).toBe(false);
    // The CLI keeps the embedded pgvector projection (PGlite, hash embedder): vector recall runs.
    expect(body.recall).toMatchObject({ signals: ['keyword', 'vector_text', 'vector_symptom'], vector: 'used', projects: ['demo'], levels: ['L1', 'L2'] });
    const first = body.results[0]!;
    expect(first).toMatchObject({ level: 'L1', project: 'demo', tier: 'memory', ranking: { keyword: { rank: 1 }, floor_passed_by: ['keyword'] } });
    expect(first['text']).toContain('Kong buffered the body');
    expect(first['parents']).toEqual(
      expect.arrayContaining([expect.objectContaining({ level: 'L0', source: 'claude:0b7f4f9e-session', t: 2, text: expect.stringContaining('413 Request Entity Too Large') })]),
    );
    expect(result.stderr).not.toContain('keyword recall only');
  });

  it('prints a readable list with citations', async () => {
    const result = await mem('query', 'Kong body buffering', '--project', 'demo', '--levels', 'L1,L2');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+ results? in demo at L1, L2\n/);
    expect(result.stdout).toMatch(/1\. \[L\d memory\] demo/);
    expect(result.stdout).toContain('cites L0 claude:0b7f4f9e-session t2: POST /upload returned 413');
  });

  it('abstains with exit 0 on an unrelated question', async () => {
    const text = await mem('query', 'How do I descale an espresso machine?');
    expect(text).toMatchObject({ code: 0, stdout: 'insufficient recall: nothing in demo at L1, L2 clears the relevance floor\n' });
    const json = JSON.parse((await mem('query', 'How do I descale an espresso machine?', '--json')).stdout);
    expect(json).toMatchObject({ results: [], abstained: true, reason: 'insufficient recall' });
  });

  it('hostile text is words: no error', async () => {
    for (const text of ['"NEAR(kong', 'text:kong*', 'proxy-body-size', '-', 'AND OR NOT']) expect((await mem('query', text, '--json')).code).toBe(0);
  });

  it('refuses bad flags with exit 2 and changes nothing', async () => {
    expect((await mem('query', 'kong', '--levels', 'L3')).code).toBe(2);
    expect((await mem('query', 'kong', '--levels', '')).code).toBe(2);
    expect((await mem('query', 'kong', '--limit', '0')).code).toBe(2);
    expect((await mem('query', 'kong', '--limit', '101')).code).toBe(2);
    expect((await mem('query', 'kong', '--project', 'Bad Name')).code).toBe(2);
    expect((await mem('query', '   ')).code).toBe(2);
    const usage = await mem('query', 'kong', '--levels', 'L3', '--json');
    expect(JSON.parse(usage.stderr).error.code).toBe('USAGE');
  });
});

describe('mem eval retrieval', () => {
  it('refuses a bad --k with exit 2', async () => {
    expect((await mem('eval', 'retrieval', '--locomo', join(repo, 'test', 'fixtures', 'locomo', 'locomo10.json'), '--k', '5,0')).code).toBe(2);
  });

  it('a missing file is a runtime error naming it (exit 1)', async () => {
    const result = await mem('eval', 'retrieval', '--locomo', 'nope.json', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'INVALID_INPUT' });
  });
});
