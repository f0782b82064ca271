import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The suite's tiers (issue 10: 8): `unit` (*.unit.spec.ts, pure), `int` (*.int.spec.ts: real
 * files, PGlite, processes, HTTP) and `drill` (the crash drills). Asked of vitest itself, in a
 * real process: every spec file on disk is in exactly one tier, `npm test` runs them all, and
 * each `npm run test:<tier>` script runs exactly its tier.
 */
const root = join(import.meta.dirname, '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const DRILLS = ['packages/log/src/crash-drill.int.spec.ts', 'packages/log/src/drills.int.spec.ts'];

/** Every spec file vitest should find, walked from the disk. */
function specFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && !['node_modules', 'dist', 'bench'].includes(entry.name))
        walk(path);
      else if (entry.isFile() && entry.name.endsWith('.spec.ts')) found.push(path);
    }
  };
  walk('test');
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true }))
    if (entry.isDirectory()) walk(`packages/${entry.name}/src`);
  return found.sort();
}

/** The files vitest would run with `args` (as `vitest run <args>`), each with its project. */
function listed(args: string[]): { file: string; project: string }[] {
  const out = execFileSync(process.execPath, [vitest, 'list', ...args, '--filesOnly', '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
  });
  const rows = JSON.parse(out) as { file: string; projectName?: string }[];
  return rows
    .map((row) => ({ file: relative(root, row.file), project: row.projectName ?? '' }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** The arguments the package.json script gives `vitest run`. */
function scriptArgs(script: string): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const command = scripts[script];
  expect(command, `package.json has no script ${script}`).toBeDefined();
  const words = command!.split(' && ').at(-1)!.trim().split(/\s+/);
  expect(words.slice(0, 2), `${script} ends in "vitest run ..."`).toEqual(['vitest', 'run']);
  return words.slice(2);
}

const tierOf = (file: string) =>
  DRILLS.includes(file)
    ? 'drill'
    : file.endsWith('.unit.spec.ts')
      ? 'unit'
      : file.endsWith('.int.spec.ts')
        ? 'int'
        : 'none';

describe('test tiers', () => {
  it('npm test runs every spec file on disk once, each in the tier its name says', () => {
    const files = specFiles();
    expect(files.filter((file) => tierOf(file) === 'none')).toEqual([]);
    expect(listed(scriptArgs('test'))).toEqual(
      files.map((file) => ({ file, project: tierOf(file) })),
    );
  }, 120_000);

  for (const tier of ['unit', 'int', 'drill']) {
    it(`npm run test:${tier} runs exactly the ${tier} tier`, () => {
      const expected = specFiles().filter((file) => tierOf(file) === tier);
      expect(expected.length).toBeGreaterThan(0);
      expect(listed(scriptArgs(`test:${tier}`))).toEqual(
        expected.map((file) => ({ file, project: tier })),
      );
    }, 120_000);
  }
});
