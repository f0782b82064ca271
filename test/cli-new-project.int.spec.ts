import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * A write may start a project (an HTTP-only project starts with its first write), so a typo in
 * --project is not refused: `mem remember … --project shpo` created shpo silently. The CLI now
 * names the project a write starts, with the root's projects and the nearest by spelling, and
 * says `new_project: true` in --json; a write to a project that exists says nothing.
 */
let root: string;
const mem = (args: readonly string[]) => memInProcess(['--root', root, ...args]);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-new-project-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a CLI write that starts a project names it', () => {
  it('the first project of a root is said in --json only; then a typo is told the project it may have meant', async () => {
    const first = await mem([
      'remember',
      'Deploys go out on Tuesdays',
      '--type',
      'fact',
      '--project',
      'shop',
      '--json',
    ]);
    expect(first.code, first.stderr).toBe(0);
    // A root's first project is the expected start: only --json says it.
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toMatchObject({ project: 'shop', new_project: true });

    const again = await mem([
      'remember',
      'Tests run with vitest',
      '--type',
      'fact',
      '--project',
      'shop',
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('new project');
    expect(JSON.parse(again.stdout)).not.toHaveProperty('new_project');

    const typo = await mem([
      'remember',
      'Tests run with jest',
      '--type',
      'fact',
      '--project',
      'shpo',
      '--json',
    ]);
    expect(typo.code, typo.stderr).toBe(0);
    expect(typo.stderr).toContain('mem: new project shpo (known: shop; did you mean shop?)\n');
    expect(JSON.parse(typo.stdout)).toMatchObject({ project: 'shpo', new_project: true });
  });

  it('items add too; a name far from every project gets no guess', async () => {
    const file = join(root, 'items.jsonl');
    writeFileSync(file, `${JSON.stringify({ type: 'task', summary: 'Ship the cart page' })}\n`);
    const added = await mem(['items', 'add', '--file', file, '--project', 'warehouse']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('mem: new project warehouse (known: shop, shpo)\n');
  });

  it('a command that does not start a project says the known ones and the nearest when it names an unknown one', async () => {
    // The walk: `mem forget … --project dmeo` was NOT_FOUND with no "did you mean demo".
    const forget = await mem(['forget', 'x', '--project', 'shoq', '--reason', 'typo']);
    expect(forget.code).toBe(1);
    expect(forget.stderr).toContain('known: shop, shpo, warehouse; did you mean shop?');
    expect(forget.stderr).toContain('NOT_FOUND');
    const read = await mem(['orient', '--project', 'zzzzzz', '--json']);
    expect(JSON.parse(read.stderr)).toMatchObject({
      error: {
        code: 'NOT_FOUND',
        details: { known: ['shop', 'shpo', 'warehouse'], nearest: null },
      },
    });
  });
});
