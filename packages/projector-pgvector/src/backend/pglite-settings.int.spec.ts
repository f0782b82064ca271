import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { acquirePglite } from './pglite-registry.js';
import { PGLITE_SETTINGS } from './pglite-settings.js';

/*
 * The embedded Postgres serves one process with one connection: server-sized defaults
 * (shared_buffers 128MB, 100 connections' shared state) are memory a WASM heap never gives
 * back. These pin that the settings in force, read back with SHOW, are the configured ones,
 * and that opening an existing cluster stays under a peak RSS bound in a real process.
 */
const registry = join(import.meta.dirname, '..', '..', 'dist', 'backend', 'pglite-registry.js');
const openScript = `const { acquirePglite } = await import(${JSON.stringify(registry)});
const { db, release } = await acquirePglite(process.argv[1]);
await db.query('SELECT 1');
await release();
process.stdout.write(JSON.stringify({ maxRssMB: process.resourceUsage().maxRSS / 1024 }));`;

const createScript = `const { acquirePglite } = await import(${JSON.stringify(registry)});
const { db, release } = await acquirePglite(process.argv[1]);
await db.query('SELECT 1');
const heldMB = process.memoryUsage().rss / 1048576;
await release();
process.stdout.write(JSON.stringify({ heldMB }));`;

/** Initdb's own instance and its copy of the cluster left ~700 MB resident for the life of the process. */
const HELD_AFTER_CREATE_MB = 450;

/** Opening an existing cluster with Postgres' defaults peaked at ~290 MB; the settings bring it to ~160 MB. */
const OPEN_PEAK_RSS_MB = 230;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function pgDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'mem-pg-settings-'));
  dirs.push(parent);
  return join(parent, 'pg');
}

describe('the embedded Postgres settings', () => {
  it('SHOW reads back every configured setting on an opened cluster', async () => {
    const { db, release } = await acquirePglite(pgDir(), process.env['MEM_TEST_PGLITE_TEMPLATE']);
    try {
      const shown: Record<string, string> = {};
      for (const name of Object.keys(PGLITE_SETTINGS)) {
        const { rows } = await db.query<Record<string, string>>(`SHOW ${name}`);
        shown[name] = rows[0]![name]!;
      }
      expect(shown).toEqual(PGLITE_SETTINGS);
    } finally {
      await release();
    }
  });

  it(`a real process opening an existing cluster peaks under ${OPEN_PEAK_RSS_MB} MB RSS`, async () => {
    expect(existsSync(registry), `${registry}: run npx tsc -b`).toBe(true);
    const dir = pgDir();
    const { release } = await acquirePglite(dir, process.env['MEM_TEST_PGLITE_TEMPLATE']);
    await release();
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      openScript,
      dir,
    ]);
    const { maxRssMB } = JSON.parse(stdout) as { maxRssMB: number };
    expect(maxRssMB).toBeLessThan(OPEN_PEAK_RSS_MB);
  }, 120_000);

  it(`a real process that creates a cluster holds under ${HELD_AFTER_CREATE_MB} MB RSS once it is open`, async () => {
    expect(existsSync(registry), `${registry}: run npx tsc -b`).toBe(true);
    // No template: this is initdb, the production path of a new data root.
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      createScript,
      pgDir(),
    ]);
    const { heldMB } = JSON.parse(stdout) as { heldMB: number };
    expect(heldMB).toBeLessThan(HELD_AFTER_CREATE_MB);
  }, 300_000);
});
