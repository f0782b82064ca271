import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contentSha256 } from '@mem/core';
import { projectStretch, type ProjectionTarget } from '@mem/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, fixturePayloads, projected, tempRoot } from '../test/support.js';
import { openItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

const A = 'alpha';
const B = 'beta';

/*
 * A rebuild installs a new store while other connections hold the old one: a server's read
 * handles in this process, and `mem serve` or a CLI reader in another. Each must read the new
 * rows on its next statement — no stale rows from a replaced file, no SQLITE_CORRUPT or IOERR
 * from a -wal/-shm that belonged to another file. The other process is real and reads in a
 * loop for the whole install.
 */
const READER = `
  const { createInterface } = await import('node:readline');
  const { openItemStore } = await import(${JSON.stringify(join(import.meta.dirname, '../dist/index.js'))});
  const store = openItemStore(process.argv[1]);
  const read = () => ({
    positions: store.positions().map((p) => p.project),
    alpha: store.nodes({ project: 'alpha' }).length,
    beta: store.nodes({ project: 'beta' }).length,
  });
  const errors = new Set();
  let reads = 0;
  const report = () => {
    let reading = null;
    try { reading = read(); } catch (error) { errors.add(error.code ?? String(error)); }
    process.stdout.write(JSON.stringify({ reading, errors: [...errors], reads }) + '\\n');
  };
  createInterface({ input: process.stdin }).on('line', report).on('close', () => process.exit(0));
  report();
  for (;;) {
    try { read(); reads++; } catch (error) { errors.add(error.code ?? String(error)); }
    await new Promise((resolve) => setImmediate(resolve));
  }
`;

interface Reading {
  positions: string[];
  alpha: number;
  beta: number;
}

interface Report {
  reading: Reading | null;
  errors: string[];
  reads: number;
}

/** A reader process on `path`, reading in a loop; `report()` asks it what it reads now. */
async function readerProcess(
  path: string,
): Promise<{ report: () => Promise<Report>; end: () => void }> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--input-type=module', '-e', READER, path],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const waiting: ((line: string) => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (let newline = out.indexOf('\n'); newline >= 0; newline = out.indexOf('\n')) {
      const line = out.slice(0, newline);
      out = out.slice(newline + 1);
      waiting.shift()?.(line);
    }
  });
  const next = () =>
    new Promise<Report>((resolve, reject) => {
      waiting.push((line) => resolve(JSON.parse(line) as Report));
      child.once('exit', (code) => reject(new Error(`reader exited ${code}: ${err}`)));
    });
  await next();
  return {
    report: () => {
      const report = next();
      child.stdin.write('report\n');
      return report;
    },
    end: () => child.stdin.end(),
  };
}

/** What `mem rebuild` does to the item store: drop it whole, replay `project`'s log, seal. */
async function rebuildAs(
  target: ProjectionTarget,
  project: string,
  payloads: Record<string, unknown>[] = fixturePayloads(),
): Promise<void> {
  await projectorSqlite.reset(target);
  const handle = await projectorSqlite.init(target);
  await projectStretch(projectorSqlite, handle, project, projected(chainEvents(project, payloads)));
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
}

describe('a rebuilt item store installed under open connections', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('is what a reader in this process and one in another process read next, with no error', async () => {
    await rebuildAs(root.target, A);
    const live = join(root.target.stateDir, 'items.sqlite');
    const here = openItemStore(live);
    const there = await readerProcess(live);
    try {
      const nodes = here.nodes({ project: A }).length;
      expect(nodes).toBeGreaterThan(0);
      const reading = (project: string): Reading => ({
        positions: [project],
        alpha: project === A ? nodes : 0,
        beta: project === B ? nodes : 0,
      });
      expect((await there.report()).reading).toEqual(reading(A));

      // Again and again: each install replaces a store that was itself installed under readers.
      for (const project of [B, A, B]) {
        await rebuildAs(root.target, project);
        expect({
          positions: here.positions().map((p) => p.project),
          alpha: here.nodes({ project: A }).length,
          beta: here.nodes({ project: B }).length,
        }).toEqual(reading(project));
        const report = await there.report();
        expect(report.errors).toEqual([]);
        expect(report.reading).toEqual(reading(project));
      }
      expect((await there.report()).reads).toBeGreaterThan(0);
    } finally {
      there.end();
      here.close();
    }
  });

  it('leaves no byte of a text the new log lacks in the file, its -wal or its -shm, while a reader holds them', async () => {
    const [run] = fixturePayloads();
    const purged = 'Ines Okonkwo-Vardanyan rotated the staging key from 17 Larchmere Close.';
    const evidence = {
      type: 'evidence',
      run_id: run!.run_id,
      level: 'L0',
      t: 99,
      source: 'claude:purge-session',
      text: purged,
      sha256: contentSha256(purged),
    };
    await rebuildAs(root.target, A, [...fixturePayloads(), evidence]);
    const live = join(root.target.stateDir, 'items.sqlite');
    // A server's read handle: with it open no close checkpoints or deletes the -wal, so only
    // the install's own checkpoint can have emptied it.
    const reader = openItemStore(live);
    try {
      expect(reader.search('Larchmere', { project: A })).toHaveLength(1);
      const held = readFileSync(live);
      expect(held.includes(Buffer.from(purged))).toBe(true);

      await rebuildAs(root.target, A);
      expect(reader.search('Larchmere', { project: A })).toEqual([]);
      const files = readdirSync(root.target.stateDir).sort();
      expect(files).toEqual(['items.sqlite', 'items.sqlite-shm', 'items.sqlite-wal']);
      for (const file of files) {
        const bytes = readFileSync(join(root.target.stateDir, file));
        for (const needle of [purged, 'Okonkwo', 'okonkwo', 'Larchmere', 'larchmer'])
          expect(bytes.includes(Buffer.from(needle)), `${file}: ${needle}`).toBe(false);
      }
    } finally {
      reader.close();
    }
  });
});
