import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeOpenai } from './support/fake-openai.js';
import { memInProcess, type MemRun } from './support/mem-cli.js';

/*
 * Issue 13 §1, one search: a curated item is found by the vector leg of `mem query` too. The
 * embedder is an OpenAI-compatible model on loopback that puts every text about running the
 * tests on one axis, so a question sharing no word with the rule reaches it by similarity
 * alone. The projection is the real embedded PGlite (the run's template); archived, deleted and
 * another project's items sit on the same axis and must never come back.
 */
const DIMS = 8;
const RULE = 'Use `conda run -n bk python -m pytest` before pushing';
const ARCHIVED = 'pytest used to run under nose';
const DELETED = 'pytest runs through tox on every push';
const BETA = 'Run pytest through make test';
const QUESTION = 'which command checks my changes?';

/** Texts about running the tests on axis 0; any other text on one of the other axes. */
function concept(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  if (/pytest|checks my changes/.test(text)) v[0] = 1;
  else v[1 + ([...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % (DIMS - 1))] = 1;
  return v;
}

let root: string;
let model: Awaited<ReturnType<typeof fakeOpenai>>;
let env: Record<string, string>;
const ids: Record<string, string> = {};

async function mem(args: readonly string[]): Promise<MemRun> {
  return memInProcess(['--root', root, ...args], { env });
}

async function remember(project: string, text: string, type: string): Promise<string> {
  const run = await mem(['remember', text, '--type', type, '--project', project, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { ids: string[] }).ids[0]!;
}

type Hit = {
  kind: string;
  level: string;
  project: string;
  item: { id: string } | null;
  ranking: { keyword: unknown; vector_text: { rank: number } | null };
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-query-item-vectors-'));
  model = await fakeOpenai(({ body }) => ({
    json: {
      data: (body['input'] as string[]).map((text, index) => ({
        index,
        embedding: concept(text),
      })),
    },
  }));
  env = {
    MEM_EMBED_URL: model.url,
    MEM_EMBED_MODEL: 'concept-embed',
    MEM_EMBED_DIMS: String(DIMS),
  };
  ids['rule'] = await remember('alpha', RULE, 'rule');
  ids['archived'] = await remember('alpha', ARCHIVED, 'fact');
  ids['deleted'] = await remember('alpha', DELETED, 'fact');
  ids['beta'] = await remember('beta', BETA, 'rule');
  const archive = await mem([
    'items',
    'attention',
    ids['archived'],
    'archive',
    '--project',
    'alpha',
  ]);
  expect(archive.code, archive.stderr).toBe(0);
  const drop = await mem([
    'items',
    'delete',
    ids['deleted'],
    '--project',
    'alpha',
    '--reason',
    'wrong',
  ]);
  expect(drop.code, drop.stderr).toBe(0);
}, 240_000);

afterAll(async () => {
  await model?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('mem query: curated items on the vector leg', () => {
  it('a question sharing no word with a rule finds it by similarity alone, as kind item', async () => {
    const run = await mem(['query', QUESTION, '--project', 'alpha', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { results: Hit[]; recall: { vector: string } };
    expect(out.recall.vector).toBe('used');
    expect(out.results[0]).toMatchObject({
      kind: 'item',
      level: 'I',
      project: 'alpha',
      item: { id: ids['rule'] },
      ranking: { keyword: null, vector_text: { rank: 1 } },
    });
  });

  it('never returns an archived, deleted or other project’s item, though they lie nearest too', async () => {
    const run = await mem(['query', QUESTION, '--project', 'alpha', '--limit', '50', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const found = (JSON.parse(run.stdout) as { results: Hit[] }).results.map((h) => h.item?.id);
    expect(found).toEqual([ids['rule']]);
    expect(run.stdout).not.toContain(ARCHIVED);
    expect(run.stdout).not.toContain(DELETED);
    expect(run.stdout).not.toContain(BETA);
  });

  it('verify finds the pgvector projection, items included, equal to a fresh rebuild', async () => {
    const run = await mem(['verify', '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('a purged item text leaves the vector leg and every file of the data root', async () => {
    const secret = 'pytest runs on the laptop of Ines Moreau-Okafor, 12 Rue Cler';
    const id = await remember('alpha', secret, 'fact');
    const before = await mem(['query', QUESTION, '--project', 'alpha', '--json']);
    expect(before.stdout).toContain(id);
    const purge = await mem(['purge', secret, '--project', 'alpha', '--reason', 'personal data']);
    expect(purge.code, purge.stderr).toBe(0);
    const after = await mem(['query', QUESTION, '--project', 'alpha', '--limit', '50', '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).not.toContain('Moreau-Okafor');
    const holding = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .filter((file) => readFileSync(file).includes('Moreau-Okafor'));
    expect(holding).toEqual([]);
  });
});
