import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../packages/engine/dist/index.js';
import { projectorSqlite } from '../packages/projector-sqlite/dist/index.js';

/*
 * The item store commits through a WAL without a sync (open-database.ts): a process killed
 * mid-catch-up must leave a store that reopens, catches up from the log and equals a rebuild
 * row for row. A real process (the registry's add_items, as a server runs it) killed with
 * SIGKILL at a moment it does not choose, three times over on one root.
 */
const here = import.meta.dirname;
const WRITER = `
  const { loadConfig } = await import(${JSON.stringify(join(here, '../packages/core/dist/index.js'))});
  const { Engine } = await import(${JSON.stringify(join(here, '../packages/engine/dist/index.js'))});
  const { projectorSqlite } = await import(${JSON.stringify(join(here, '../packages/projector-sqlite/dist/index.js'))});
  const { openRegistry } = await import(${JSON.stringify(join(here, '../packages/registry/dist/index.js'))});
  const engine = new Engine({ root: process.argv[1], projectors: [projectorSqlite] });
  const registry = await openRegistry({ engine, config: loadConfig({}), version: 'crash', runJobs: false });
  const caller = registry.local('crash');
  const { ids: [thread] } = await registry.invoke('add_items', caller, {
    project: 'crash', items: [{ type: 'thread', summary: 'crash thread' }],
  });
  for (let round = 0; ; round++) {
    await registry.invoke('add_items', caller, {
      project: 'crash',
      items: Array.from({ length: 100 }, (_, k) => ({
        type: 'task', summary: 'task ' + round + '.' + k + ' of the crash drill', parent: thread, tags: ['t' + (k % 7)],
      })),
    });
    process.stdout.write('added ' + round + '\\n');
  }
`;

/** Runs the writer until it has acknowledged `rounds` batches, then SIGKILLs it `delayMs` later. */
function killMidWrite(root: string, rounds: number, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, root], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(`added ${rounds - 1}\n`)) setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited ${code}: ${err}`)),
    );
  });
}

describe('the item store after a writer is killed mid-catch-up', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mem-sqlite-crash-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reopens, catches up and equals a rebuild of the log, kill after kill', async () => {
    for (const [rounds, delayMs] of [
      [2, 0],
      [3, 7],
      [2, 23],
    ] as const) {
      await killMidWrite(root, rounds, delayMs);
      const engine = new Engine({ root, projectors: [projectorSqlite] });
      const report = await engine.verify({ project: 'crash' });
      expect(report.parity.differences).toEqual([]);
      expect(report.ok).toBe(true);
    }
  }, 600_000);
});
