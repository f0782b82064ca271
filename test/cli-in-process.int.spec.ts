import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * The two ways the suite runs `mem` (issue 10: 8). Most CLI cases run in process, because a real
 * process per case loads the PGlite WASM again; they are only worth it if an in-process run is the
 * same command: the same exit code and output as the built bin, on roots that copy the run's
 * PGlite template instead of paying initdb.
 */
const sample = join(import.meta.dirname, 'fixtures', 'extraction-runs.jsonl');
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-cli-in-process-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** pg_control starts with the cluster's system identifier, which initdb draws anew for every cluster. */
const systemIdentifier = (dataDir: string) =>
  readFileSync(join(dataDir, 'global', 'pg_control'))
    .subarray(0, 8)
    .toString('hex');

describe('mem in process', () => {
  it("copies the run's PGlite template into a fresh root instead of running initdb", async () => {
    const template = process.env['MEM_TEST_PGLITE_TEMPLATE'];
    expect(template, 'the int tier sets the template').toBeTruthy();
    expect(
      (await memInProcess(['--root', root, 'log', 'append', '--project', 'demo', '--file', sample]))
        .code,
    ).toBe(0);
    expect(systemIdentifier(join(root, '.mem', 'pg'))).toBe(systemIdentifier(template!));
  });
});

describe('mem in process and the built bin', () => {
  let shared: string;
  // One root for every case: none of them writes (a refused batch, a verify, usage errors).
  beforeAll(async () => {
    shared = mkdtempSync(join(tmpdir(), 'mem-cli-parity-'));
    expect(
      (
        await memInProcess([
          '--root',
          shared,
          'log',
          'append',
          '--project',
          'demo',
          '--file',
          sample,
        ])
      ).code,
    ).toBe(0);
    writeFileSync(join(shared, 'bad.jsonl'), '{"type": "run",\n');
    const segment = join(shared, 'log', 'demo', '000001.jsonl');
    writeFileSync(
      segment,
      readFileSync(segment, 'utf8').replace('"update":false', '"update":true'),
    );
  });
  afterAll(() => rmSync(shared, { recursive: true, force: true }));

  it.each([
    ['a usage error', ['log', 'show', '--project', 'demo', '--from-seq', 'abc']],
    ['an unknown command', ['frobnicate']],
    ['a refused batch', ['log', 'append', '--project', 'demo', '--file', 'bad.jsonl', '--json']],
    ['a verify of a tampered log', ['verify', '--json']],
  ])('give the same exit code and output: %s', async (_name, args) => {
    const inProcess = await memInProcess(['--root', shared, ...args], { cwd: shared });
    const child = memProcess(['--root', shared, ...args], { cwd: shared });
    expect(inProcess.code).not.toBe(0);
    expect(inProcess).toEqual(child);
  });
});
