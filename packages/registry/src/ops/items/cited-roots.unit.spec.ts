import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { citedDirectoriesByProject } from './cited-roots.js';
import { checkSource, citingScope } from './source-check.js';

/*
 * Stop 32 (board "Cited sources"): every answer that judges a citation reads each project's
 * `cites:` list. A file is parsed once per change of its stamp, answers that start together
 * share the parse in flight, and one answer works out a project's roots once.
 */
const parses = vi.hoisted(() => ({ files: [] as string[] }));
vi.mock('@mem/ingest/cites', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@mem/ingest/cites')>();
  return {
    readCitedDirectories: (file: string) => {
      parses.files.push(file);
      return actual.readCitedDirectories(file);
    },
  };
});

const base = mkdtempSync(join(tmpdir(), 'mem-cited-roots-'));
// Each queries directory below lies in `base`, the data root its `cites:` entries name (each
// must be a directory there).
mkdirSync(join(base, 'docs'));
mkdirSync(join(base, 'dxcs'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function queriesWith(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

describe("the cites: lists' parse", () => {
  it('is shared by answers that start together: one parse per file for 20 answers', async () => {
    const dir = queriesWith('together', { 'a.yaml': 'cites:\n  - docs\n', 'b.yaml': 'x: 1\n' });
    parses.files.length = 0;
    const lists = await Promise.all(
      Array.from({ length: 20 }, () => citedDirectoriesByProject(dir)),
    );
    expect(parses.files.sort()).toEqual([join(dir, 'a.yaml'), join(dir, 'b.yaml')]);
    for (const list of lists)
      expect(list).toEqual(
        new Map([
          ['a', [['docs']]],
          ['b', null],
        ]),
      );
  });

  it('sees a same-size rewrite whose mtime was put back (ctime is in the stamp)', async () => {
    const dir = queriesWith('rewrite', { 'a.yaml': 'cites:\n  - docs\n' });
    const file = join(dir, 'a.yaml');
    // A whole second, which utimes puts back exactly.
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect((await citedDirectoriesByProject(dir)).get('a')).toEqual([['docs']]);
    const before = statSync(file);
    writeFileSync(file, 'cites:\n  - dxcs\n');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(statSync(file).ino).toBe(before.ino);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect((await citedDirectoriesByProject(dir)).get('a')).toEqual([['dxcs']]);
  });
});

describe("one answer's roots", () => {
  it('are worked out once per project', async () => {
    const dir = queriesWith('once', { 'a.yaml': 'cites:\n  - docs\n' });
    const scope = citingScope({ root: base, queriesDir: dir });
    const first = await scope.rootsOf('a');
    expect(first).toEqual({ own: [['docs']], others: [] });
    expect(await scope.rootsOf('a')).toBe(first);
    expect(await scope.rootsOf('b')).toEqual({ own: null, others: [['docs']] });
  });
});

describe('a listed symlink to the data root itself', () => {
  it("lists the whole root: every local path is the lister's, none the others'", async () => {
    const root = join(base, 'linked-root');
    mkdirSync(join(root, 'queries'), { recursive: true });
    writeFileSync(join(root, 'runbook.md'), 'R');
    symlinkSync('.', join(root, 'all'));
    writeFileSync(join(root, 'queries', 'beta.yaml'), 'cites:\n  - all\n');
    const sha256 = createHash('sha256').update('R').digest('hex');
    const check = (project: string, uri: string) =>
      checkSource(
        { project, source_uri: uri, source_sha256: sha256 },
        citingScope({ root, queriesDir: join(root, 'queries') }),
      );
    expect(await check('beta', 'runbook.md')).toBe('unchanged');
    expect(await check('beta', 'all/runbook.md')).toBe('unchanged');
    expect(await check('alpha', 'runbook.md')).toBe('outside');
    expect(await check('alpha', 'all/runbook.md')).toBe('outside');
  });
});
