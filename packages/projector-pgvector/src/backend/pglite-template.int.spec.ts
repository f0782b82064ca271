import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memErrorOf } from '../../../../test/support/thrown.js';
import { backendConfig } from '../options.js';
import { embeddedDir, openBackend } from './open-backend.js';

// The suite initialises PGlite once (test/support/pglite-template.global.ts): a new embedded
// projection copies MEM_TEST_PGLITE_TEMPLATE instead of running initdb. These pin that the copy
// is what opens, that an existing cluster is never overwritten, and that a bad template is refused.
// Each of the two below runs initdb (in a child process): ~60 s on a loaded 2-core runner.
const INITDB_TEST_MS = 240_000;
const TABLES = `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;

describe('a PGlite template (test-only)', () => {
  const dirs: string[] = [];
  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-pg-template-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** An initialised cluster carrying a marker table, made through the production path. */
  async function markedTemplate(): Promise<string> {
    const source = stateDir();
    const backend = await openBackend(backendConfig({ config: {} }), source, { create: true });
    await backend.client.exec('CREATE TABLE public.template_marker (id int)');
    await backend.client.close();
    return embeddedDir(source);
  }

  it("the int tier hands every test file (and the children it spawns) the run's template", () => {
    const template = process.env['MEM_TEST_PGLITE_TEMPLATE'];
    expect(template, "the int project's setup file sets MEM_TEST_PGLITE_TEMPLATE").toBeTruthy();
    expect(existsSync(join(template!, 'PG_VERSION'))).toBe(true);
  });

  it(
    'a new embedded projection is a copy of the template, not a fresh initdb',
    async () => {
      const template = await markedTemplate();
      const target = stateDir();
      const backend = await openBackend(
        backendConfig({ config: { MEM_TEST_PGLITE_TEMPLATE: template } }),
        target,
        { create: true },
      );
      try {
        expect(await backend.client.query(TABLES)).toEqual([{ tablename: 'template_marker' }]);
        expect(backend.extension.version).toMatch(/^\d+\.\d+/);
      } finally {
        await backend.client.close();
      }
    },
    INITDB_TEST_MS,
  );

  it(
    'an existing cluster is opened as it is, never overwritten by the template',
    async () => {
      const template = await markedTemplate();
      const target = stateDir();
      const first = await openBackend(backendConfig({ config: {} }), target, { create: true });
      await first.client.exec('CREATE TABLE public.own_table (id int)');
      await first.client.close();
      const again = await openBackend(
        backendConfig({ config: { MEM_TEST_PGLITE_TEMPLATE: template } }),
        target,
        { create: true },
      );
      try {
        expect(await again.client.query(TABLES)).toEqual([{ tablename: 'own_table' }]);
      } finally {
        await again.client.close();
      }
    },
    INITDB_TEST_MS,
  );

  it('a template that is not an initialised cluster is CONFIG_INVALID naming it, and creates nothing', async () => {
    const empty = join(stateDir(), 'not-a-cluster');
    mkdirSync(empty);
    const target = stateDir();
    const error = await memErrorOf(
      openBackend(backendConfig({ config: { MEM_TEST_PGLITE_TEMPLATE: empty } }), target, {
        create: true,
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(empty);
    expect(error.message).toContain('MEM_TEST_PGLITE_TEMPLATE');
    expect(existsSync(embeddedDir(target))).toBe(false);
  });
});
