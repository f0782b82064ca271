import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentSha256, uniformLines } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 14 §2: R never enters the gated loop. A corpus read beside a transcript leaves every
 * standing query's chunks seen and used (its update-rate) as they are without it, and an R
 * passage is refused as a memory's parent.
 */
const repo = join(import.meta.dirname, '..');
let base: string;

function dataRoot(name: string): string {
  const root = join(base, name);
  mkdirSync(join(root, 'queries'), { recursive: true });
  cpSync(join(repo, 'test', 'fixtures', 'transcripts', 'claude'), join(root, 'claude'), {
    recursive: true,
  });
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    'project: demo\nsources:\n  - claude:../claude\nqueries:\n  - id: tests\n    question: Which tests failed and how were they fixed?\n  - id: decisions\n    question: Which design decisions were made and why?\n',
  );
  return root;
}

const mem = (root: string, ...args: string[]) =>
  memInProcess(['--root', root, ...args], { cwd: root });

interface Ingest {
  queries: {
    queryId: string | null;
    chunksSeen: number;
    chunksUsed: number;
    chunksDerived: number;
  }[];
}

async function ingest(root: string): Promise<Ingest['queries']> {
  const run = await mem(root, 'ingest', '--project', 'demo', '--controller', 'heuristic', '--json');
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as Ingest).queries.map((q) => ({
    queryId: q.queryId,
    chunksSeen: q.chunksSeen,
    chunksUsed: q.chunksUsed,
    chunksDerived: q.chunksDerived,
  }));
}

async function addCorpus(root: string): Promise<string> {
  const docs = join(root, 'docs');
  mkdirSync(docs);
  cpSync(join(repo, 'node_modules', 'commander', 'Readme.md'), join(docs, 'README.md'));
  const run = await mem(
    root,
    'ref',
    'add',
    docs,
    '--project',
    'demo',
    '--name',
    'cli-docs',
    '--json',
  );
  expect(run.code, run.stderr).toBe(0);
  return docs;
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mem-ref-gate-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('a reference corpus and the gated loop', () => {
  it('leaves every query’s chunks seen and used as they are without it, before or after the ingest', async () => {
    const plain = await ingest(dataRoot('plain'));
    expect(plain.every((q) => q.chunksSeen > 0)).toBe(true);

    const first = dataRoot('corpus-first');
    await addCorpus(first);
    expect(await ingest(first)).toEqual(plain);

    const after = dataRoot('corpus-after');
    expect(await ingest(after)).toEqual(plain);
    await addCorpus(after);
    // Nothing new to read: the corpus is no chunk of any query.
    expect((await ingest(after)).map((q) => q.chunksSeen)).toEqual(plain.map(() => 0));
    // Four ingests of real transcripts, each opening a data root: minutes on a loaded machine.
  }, 400_000);

  it('refuses a memory that names an R passage as its parent', async () => {
    const root = dataRoot('parent');
    await addCorpus(root);
    const shown = await mem(root, 'log', 'show', '--project', 'demo');
    const passage = shown.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; sha256?: string })
      .find((e) => e.type === 'reference')!;
    const text = 'Commander parses variadic options.';
    const memory = {
      type: 'memory',
      run_id: 'r1',
      level: 'L1',
      t: 1,
      text,
      tokens: 5,
      parents: [passage.sha256!],
      sha256: contentSha256(text),
      lines: uniformLines(text, [passage.sha256!]),
    };
    const run = {
      type: 'run',
      run_id: 'r1',
      level: 'L1',
      query_id: 'tests',
      input_level: 'chunk',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: false,
    };
    const before = (await mem(root, 'log', 'show', '--project', 'demo')).stdout;
    const appended = await memInProcess(['--root', root, 'log', 'append', '--project', 'demo'], {
      cwd: root,
      input: `${JSON.stringify(run)}\n${JSON.stringify(memory)}\n`,
    });
    expect(appended.code).not.toBe(0);
    expect(appended.stderr).toContain('PROVENANCE_FAILED');
    expect(appended.stderr).toContain('reference');
    expect((await mem(root, 'log', 'show', '--project', 'demo')).stdout).toBe(before);
  });
});
