import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * npm test runs eslint and prettier --check before vitest (issue 10, item 10). These tests run
 * the repository's own configs on planted files: a violation must be an error (so `npm run lint`
 * exits non-zero), and the files whose bytes are hashed must be out of prettier's reach.
 */
const root = join(import.meta.dirname, '..');

describe('eslint with the repository config', () => {
  // Inside test/ so that tsconfig.specs.json includes it and the typed rules see it.
  let dir: string;
  let planted: string;

  beforeAll(() => {
    dir = mkdtempSync(join(root, 'test', 'lint-planted-'));
    planted = join(dir, 'planted.ts');
    writeFileSync(
      planted,
      [
        'async function save(): Promise<void> {}',
        'export function run(): void {',
        '  const unused = 1;',
        '  save();',
        '}',
        '',
      ].join('\n'),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports an unused variable and a floating promise as errors', async () => {
    const [result] = await new ESLint({ cwd: root }).lintFiles([relative(root, planted)]);
    const errors = result!.messages
      .filter((message) => message.severity === 2)
      .map((message) => `${message.line}: ${message.ruleId}`);
    expect(errors).toEqual([
      '3: @typescript-eslint/no-unused-vars',
      '4: @typescript-eslint/no-floating-promises',
    ]);
  }, 180_000);

  it('runs in npm test before vitest, after the type-checks', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['lint']).toBe('eslint .');
    expect(manifest.scripts['format:check']).toBe('prettier --check .');
    expect(manifest.scripts['test']).toBe(
      'npm run build --silent && tsc -p tsconfig.specs.json && tsc -p tsconfig.bench.json && eslint . && prettier --check . && vitest run',
    );
    expect(manifest.scripts['build']).toBe('tsc -b && node packages/cli/bundle.mjs');
  });
});

describe('prettier with the repository config', () => {
  it('refuses a line wider than 100 columns and accepts the house style', async () => {
    const options = await prettier.resolveConfig(join(root, 'test', 'planted.ts'));
    const wide = `export const words = ['${'a'.repeat(40)}', '${'b'.repeat(40)}', '${'c'.repeat(40)}'];\n`;
    expect(await prettier.check(wide, { ...options, filepath: 'planted.ts' })).toBe(false);
    const house = "export const quoted = { text: 'single', list: [1, 2] };\n";
    expect(await prettier.check(house, { ...options, filepath: 'planted.ts' })).toBe(true);
  });

  it('never reaches the committed logs, vaults, fixtures or the lockfile', async () => {
    const hashed = [
      'log/demo/000001.jsonl',
      'vault/demo/index.md',
      'test/fixtures/locomo/locomo10.json',
      'test/fixtures/retrieval/references-opt-in.json',
      'test/fixtures/versioned-log/versioned/000001.jsonl',
      'packages/projector-vault/test/fixtures/sample-vault/poimen/index.md',
      'packages/sources/src/loop/__fixtures__/artifacts/T-101/1-coder.jsonl',
      'package-lock.json',
      'migrations/sqlite/0001_init.sql',
    ];
    const ignorePath = join(root, '.prettierignore');
    const reached: string[] = [];
    for (const path of hashed) {
      const info = await prettier.getFileInfo(join(root, path), { ignorePath });
      if (!info.ignored) reached.push(path);
    }
    expect(reached).toEqual([]);
    // An ignore pattern must not swallow a package of the same name (packages/log, not log/).
    const code = await prettier.getFileInfo(join(root, 'packages/log/src/index.ts'), {
      ignorePath,
    });
    expect(code.ignored).toBe(false);
  });
});
