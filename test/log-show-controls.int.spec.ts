import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * `mem log show` prints events as JSON, and JSON output escapes C1 and bidi controls (README):
 * a reference passage is stored verbatim, so it may hold U+202E, which a terminal would act on.
 */
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-log-show-controls-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('prints a verbatim passage with a bidi or C1 control escaped, the same value', async () => {
  const text = '# Title\n\nKong buffered \u202eydob\u202c bodies \u0085 over 10KB.';
  const payload = {
    type: 'reference',
    level: 'R',
    source: 'docs/kong.md',
    heading_path: ['Title'],
    text,
    sha256: contentSha256(text),
    corpus: 'docs',
  };
  const appended = await memInProcess(
    ['--root', root, 'log', 'append', '--project', 'demo', '--json'],
    { input: `${JSON.stringify(payload)}\n` },
  );
  expect(appended.code, appended.stderr).toBe(0);
  const shown = await memInProcess(['--root', root, 'log', 'show', '--project', 'demo']);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).not.toMatch(/[\u0085\u202c\u202e]/u);
  expect(shown.stdout).toContain('\\u202e');
  const events = shown.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; text?: string });
  expect(events.find((e) => e.type === 'reference')?.text).toBe(text);
});
