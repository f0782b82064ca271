import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkSource, citingScope } from './source-check.js';

/*
 * Stop 34 (issue 13 §2): find_items judges every match citing a source, so each cited file's
 * digest is kept by its stamp (source-check.ts DIGESTS) and one answer reads a file cited by
 * many items once. A file's opens are counted here (node:fs/promises' open, wrapped).
 *
 * `later` stands for an answer more than 2 s after the file was last written (the racy rule
 * keeps nothing stamped within 2 s of the answer's start).
 */
const opened = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    open: (
      path: string,
      ...rest: Parameters<typeof actual.open> extends [unknown, ...infer R] ? R : never
    ) => {
      opened.paths.push(String(path));
      return actual.open(path, ...rest);
    },
  };
});

const base = realpathSync(mkdtempSync(join(tmpdir(), 'mem-source-digests-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const later = () => Date.now() + 60_000;

function dataRoot(name: string, text: string) {
  const root = join(base, name);
  mkdirSync(join(root, 'queries'), { recursive: true });
  writeFileSync(join(root, 'runbook.md'), text);
  return { root, paths: { root, queriesDir: join(root, 'queries') } };
}

const item = (project: string, text: string) => ({
  project,
  source_uri: 'runbook.md',
  source_sha256: sha(text),
});

describe('cited digests kept by stamp', () => {
  it('a file cited by many items is read once an answer, and not again while its stamp stands', async () => {
    const { paths } = dataRoot('kept', 'Deploys go blue.\n');
    opened.paths.length = 0;
    const first = citingScope(paths, undefined, later);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => checkSource(item('alpha', 'Deploys go blue.\n'), first)),
    );
    expect(new Set(answers)).toEqual(new Set(['unchanged']));
    expect(opened.paths).toHaveLength(1);
    expect(
      await checkSource(item('alpha', 'Deploys go blue.\n'), citingScope(paths, undefined, later)),
    ).toBe('unchanged');
    expect(opened.paths).toHaveLength(1);
  });

  it('a file rewritten since is read again and judged changed', async () => {
    const { root, paths } = dataRoot('rewritten', 'Deploys go blue.\n');
    expect(
      await checkSource(item('alpha', 'Deploys go blue.\n'), citingScope(paths, undefined, later)),
    ).toBe('unchanged');
    opened.paths.length = 0;
    // Another size, another mtime and ctime: the kept stamp no longer stands.
    await new Promise((done) => setTimeout(done, 20));
    writeFileSync(join(root, 'runbook.md'), 'Deploys go green now.\n');
    expect(
      await checkSource(item('alpha', 'Deploys go blue.\n'), citingScope(paths, undefined, later)),
    ).toBe('changed');
    expect(opened.paths).toHaveLength(1);
  });

  it('keeps nothing stamped within 2 s of the answer (the racy rule): the next answer reads it again', async () => {
    const { paths } = dataRoot('racy', 'Deploys go blue.\n');
    opened.paths.length = 0;
    expect(await checkSource(item('alpha', 'Deploys go blue.\n'), citingScope(paths))).toBe(
      'unchanged',
    );
    expect(await checkSource(item('alpha', 'Deploys go blue.\n'), citingScope(paths))).toBe(
      'unchanged',
    );
    expect(opened.paths).toHaveLength(2);
  });
});
