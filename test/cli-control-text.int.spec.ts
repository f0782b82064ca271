import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { Engine } from '@mem/engine';
import { memInProcess } from './support/mem-cli.js';

/*
 * A user walk wrote `a\x07b\x1b[31mred` with mem remember and saw mem items read and mem orient
 * ring the bell and turn the terminal red: item text from HTTP and MCP writers is untrusted. A
 * write holding a control or bidi character is refused, naming the field and code point, and
 * appends nothing, and so is a `mem log append` payload line holding one (but in the fields that
 * hold a source as read); text already in a log (written before these checks) prints as visible
 * escapes; --json stays JSON and carries the stored value.
 */
/** A raw BEL, ESC or RLO: what a terminal would act on. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u0007\u001b\u202e]/u;
let root: string;
const mem = (args: readonly string[], stdin?: string) =>
  memInProcess(['--root', root, ...args], { cwd: tmpdir(), ...(stdin ? { input: stdin } : {}) });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-control-text-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('control characters in item text', () => {
  it('remember refuses ESC/BEL and a bidi override, naming the code point, and writes nothing', async () => {
    const ok = await mem([
      'remember',
      'Deploys go out on Tuesdays',
      '--type',
      'fact',
      '--project',
      'demo',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const ansi = await mem([
      'remember',
      'a\u0007b\u001b[31mred',
      '--type',
      'fact',
      '--project',
      'demo',
    ]);
    expect(ansi.code).toBe(2);
    expect(ansi.stderr).toContain('U+0007');
    expect(ansi.stderr).toContain('INVALID_INPUT');
    const bidi = await mem(['remember', 'x \u202e evil', '--type', 'fact', '--project', 'demo']);
    expect(bidi.stderr).toContain('bidi control U+202E');
    const log = await mem(['log', 'show', '--project', 'demo']);
    expect(log.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('stored text prints escaped in items read and orient, raw-valued in --json', async () => {
    const summary = 'old \u001b[31mred \u202eevil \u0007bell';
    // A log written before the write checks: appended by the engine itself, below every writer's check.
    const engine = new Engine({ root, projectors: [] });
    await engine.append('demo', [{ type: 'item_added', item_type: 'fact', summary }], {
      kind: 'cli',
    });
    await engine.close();
    const found = await mem(['items', 'find', '--project', 'demo', '--json']);
    const id = (
      JSON.parse(found.stdout) as { items: { id: string; summary: string }[] }
    ).items.find((item) => item.summary === summary)!.id;
    const shown = '\\x1b[31mred \\u202eevil \\x07bell';
    const read = await mem(['items', 'read', id, '--project', 'demo']);
    expect(read.stdout).toContain(shown);
    expect(read.stdout).not.toMatch(RAW);
    const orient = await mem(['orient', '--project', 'demo']);
    expect(orient.stdout).toContain(shown);
    expect(orient.stdout).not.toMatch(RAW);
    const json = await mem(['items', 'read', id, '--project', 'demo', '--json']);
    expect(json.stdout).not.toMatch(RAW);
    expect((JSON.parse(json.stdout) as { items: { summary: string }[] }).items[0]!.summary).toBe(
      summary,
    );
  });
});

describe('control characters in mem log append', () => {
  const logLines = async () =>
    (await mem(['log', 'show', '--project', 'demo'])).stdout.trim().split('\n').length;

  it('refuses a payload line holding ESC or a bidi override, naming file, line, field and code point; nothing appended', async () => {
    const before = await logLines();
    for (const [summary, point] of [
      ['ok \u001b[31mred', 'U+001B'],
      ['ok \u202eevil', 'U+202E'],
    ] as const) {
      const refused = await mem(
        ['log', 'append', '--project', 'demo', '--json'],
        `${JSON.stringify({ type: 'item_added', item_type: 'fact', summary: 'fine' })}\n${JSON.stringify({ type: 'item_added', item_type: 'fact', summary })}\n`,
      );
      expect(refused.code).toBe(2);
      const error = (JSON.parse(refused.stderr) as { error: Record<string, unknown> }).error;
      expect(error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { file: 'stdin', line: 2, field: 'summary', code_point: point },
      });
      expect(refused.stderr).not.toMatch(RAW);
    }
    expect(await logLines()).toBe(before);
  });

  it('keeps a source span verbatim (evidence text is what the terminal saw)', async () => {
    const text = 'npm test printed \u001b[31mFAIL\u001b[0m';
    const evidence = {
      type: 'evidence',
      run_id: 'run-control-text',
      level: 'L0',
      t: 1,
      source: 'file:///tmp/session.jsonl',
      text,
      sha256: contentSha256(text),
    };
    const appended = await mem(
      ['log', 'append', '--project', 'demo'],
      `${JSON.stringify(evidence)}\n`,
    );
    expect(appended.code, appended.stderr).toBe(0);
  });
});
