import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tamperOneRow } from '../packages/projector-sqlite/test/tamper.js';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * The live item store is written in place (issue 15 §1), so `mem verify` compares it with a
 * rebuild table by table, not byte by byte: one edited row must still fail verify, and the
 * report must name the table it lives in. verify runs as the built bin, a real file edited with
 * better-sqlite3 between its processes; the appends that make the store run in process.
 */
const sample = join(import.meta.dirname, 'fixtures', 'extraction-runs.jsonl');
let root: string;
const mem = (args: string[]) => memProcess(['--root', root, ...args], { cwd: root });

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-verify-tamper-'));
  // Two appends: the second catches the store up in place, as every append after the first does.
  const lines = readFileSync(sample, 'utf8').trim().split('\n');
  for (const [name, part] of [
    ['first.jsonl', lines.slice(0, 15)],
    ['second.jsonl', lines.slice(15)],
  ] as const) {
    writeFileSync(join(root, name), `${part.join('\n')}\n`);
    const appended = await memInProcess(
      ['--root', root, 'log', 'append', '--project', 'demo', '--file', join(root, name)],
      { cwd: root },
    );
    expect(appended.code, appended.stderr).toBe(0);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem verify on a tampered live items.sqlite', () => {
  it('passes untouched, then fails (exit 3) naming the table of one edited row', () => {
    expect(mem(['verify']).code).toBe(0);
    const changed = tamperOneRow(
      join(root, '.mem'),
      `UPDATE gate SET think = 'edited by hand' WHERE (project, run_id, t) = (SELECT project, run_id, t FROM gate ORDER BY 1, 2, 3 LIMIT 1)`,
    );
    expect(changed).toBe(1);
    const result = mem(['verify', '--json']);
    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout) as {
      parity: { differences: { path: string; problem: string }[] };
    };
    expect(report.parity.differences).toEqual([
      expect.objectContaining({ path: 'sqlite:gate', problem: 'differs' }),
    ]);
  });

  it('names node (and node_fts, whose index no longer matches) for an edited memory text', () => {
    tamperOneRow(
      join(root, '.mem'),
      `UPDATE node SET text = 'edited by hand' WHERE id = (SELECT min(id) FROM node WHERE kind = 'memory')`,
    );
    const result = mem(['verify', '--json']);
    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout) as { parity: { differences: { path: string }[] } };
    expect(report.parity.differences.map((d) => d.path)).toEqual([
      'sqlite:node',
      'sqlite:node_fts',
    ]);
  });
});
