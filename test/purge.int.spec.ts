import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256, uniformLines } from '@mem/core';
import { Engine } from '@mem/engine';
import { projectorPgvector } from '@mem/projector-pgvector';
import { canonicalBytes, projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { openRegistry } from '@mem/registry';
import { startServer } from '@mem/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, mint } from './api/support.js';
import { testConfig } from './support/test-config.js';
import { memInProcess } from './support/mem-cli.js';

/*
 * Hard purge (issue 12, item 6): a personal string planted in an evidence text and a memory
 * line leaves every byte under the data root — log, SQLite, PGlite, vault, caches — while
 * `mem verify` accepts exactly that rewrite and still names any other edit. Real files, `mem`
 * in process.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const PERSON = 'Ines Okonkwo-Vardanyan of 17 Larchmere Close';
const EVIDENCE = `The deploy key was rotated by ${PERSON} after the staging leak.`;
const LINE = `${PERSON} rotated the staging key.`;
let root: string;

// In process: the cases are about what the command does, not about processes.
const mem = (args: string[], input?: string) => memInProcess(['--root', root, ...args], { input });

function planted(): string {
  const run = 'run-purge-1';
  const evidence = EVIDENCE;
  const parents = [contentSha256(evidence)];
  const memory = `- Staging deploy keys rotate after a leak.\n- ${LINE}`;
  const payloads = [
    {
      type: 'run',
      run_id: run,
      level: 'L1',
      query_id: 'infra-root-causes',
      input_level: 'chunk',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: false,
    },
    {
      type: 'chunk',
      run_id: run,
      level: 'L0',
      t: 1,
      source: 'claude:purge-session',
      span: [0, 60],
      sha256: parents[0],
    },
    {
      type: 'evidence',
      run_id: run,
      level: 'L0',
      t: 1,
      source: 'claude:purge-session',
      text: evidence,
      sha256: parents[0],
    },
    {
      type: 'memory',
      run_id: run,
      level: 'L1',
      t: 1,
      text: memory,
      tokens: 20,
      parents,
      sha256: contentSha256(memory),
      lines: uniformLines(memory, parents),
    },
    {
      type: 'run_end',
      run_id: run,
      level: 'L1',
      chunks_seen: 1,
      chunks_used: 1,
      final_memory_sha: contentSha256(memory),
    },
  ];
  return payloads.map((p) => JSON.stringify(p)).join('\n') + '\n';
}

/** Every file under `dir`, binary included. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function holding(needle: string): string[] {
  return files(root).filter((file) => readFileSync(file).includes(Buffer.from(needle, 'utf8')));
}

function snapshot(): Map<string, string> {
  return new Map(files(join(root, 'vault')).map((file) => [file, readFileSync(file, 'utf8')]));
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-purge-'));
  expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
  const appended = await mem(['log', 'append', '--project', 'demo'], planted());
  expect(appended.code, appended.stderr).toBe(0);
  expect((await mem(['rebuild', '--from-log'])).code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem purge', () => {
  it('leaves no byte of the text under the data root; verify passes; a rebuild is byte-identical; another edit still fails naming its line', async () => {
    expect(holding(PERSON).length).toBeGreaterThan(1);
    const purged = await mem([
      'purge',
      PERSON,
      '--project',
      'demo',
      '--reason',
      'personal data',
      '--json',
    ]);
    expect(purged.code, purged.stderr).toBe(0);
    const report = JSON.parse(purged.stdout) as { lines: { seq: number }[]; text_sha256: string };
    expect(report.lines.map((l) => l.seq)).toEqual([24, 25]);
    expect(report.text_sha256).toBe(contentSha256(PERSON));
    expect(holding(PERSON)).toEqual([]);
    expect(holding(PERSON.toLowerCase())).toEqual([]);
    expect(holding('Okonkwo')).toEqual([]);

    const verified = await mem(['verify', '--json']);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const before = snapshot();
    const store = canonicalBytes(join(root, '.mem', 'items.sqlite'));
    expect((await mem(['rebuild', '--from-log'])).code).toBe(0);
    expect(snapshot()).toEqual(before);
    expect(canonicalBytes(join(root, '.mem', 'items.sqlite')).equals(store)).toBe(true);

    const segment = join(root, 'log', 'demo', '000001.jsonl');
    const lines = readFileSync(segment, 'utf8').split('\n');
    expect(lines[2]).toContain('Tool output without evidence');
    lines[2] = lines[2]!.replace('Tool output without evidence', 'Tool 0utput without evidence');
    writeFileSync(segment, lines.join('\n'));
    const broken = await mem(['verify', '--json']);
    expect(broken.code).toBe(3);
    const chain = (
      JSON.parse(broken.stdout) as {
        projects: { chain: { break?: { line: number; code: string; message: string } } }[];
      }
    ).projects[0]!.chain;
    expect(chain.break).toMatchObject({ line: 4, code: 'CHAIN_BROKEN' });
    expect(chain.break!.message).toContain('000001.jsonl line 3');
  }, 240_000);

  // Red before (stop 35): the purge reset the whole vault and replayed it over the edit.
  it('refuses while a note holds an uncaptured edit (CONFLICT naming it), changing nothing; after capture it purges', async () => {
    const note = join(root, 'vault', 'demo', 'infra-root-causes.md');
    const edited = readFileSync(note, 'utf8').replace(
      '- Staging deploy keys rotate after a leak.',
      '- Staging deploy keys rotate after every leak.',
    );
    expect(edited).not.toBe(readFileSync(note, 'utf8'));
    writeFileSync(note, edited);
    const log = holding(PERSON).filter((file) => file.includes(`${join(root, 'log')}`));
    const before = log.map((file) => readFileSync(file, 'utf8'));
    const args = ['purge', PERSON, '--project', 'demo', '--reason', 'personal data', '--json'];
    const refused = await mem(args);
    expect(refused.code).toBe(1);
    const error = (
      JSON.parse(refused.stderr) as {
        error: { code: string; message: string; details: { reason: string; files: string[] } };
      }
    ).error;
    expect(error.code).toBe('CONFLICT');
    expect(error.details).toMatchObject({
      reason: 'uncaptured_edits',
      files: ['vault/demo/infra-root-causes.md'],
    });
    expect(error.message).toContain('mem vault capture');
    expect(log.map((file) => readFileSync(file, 'utf8'))).toEqual(before);
    expect(readFileSync(note, 'utf8')).toBe(edited);
    expect((await mem(['vault', 'capture', '--project', 'demo'])).code).toBe(0);
    const purged = await mem(args);
    expect(purged.code, purged.stderr).toBe(0);
    expect(readFileSync(note, 'utf8')).toContain('- Staging deploy keys rotate after every leak.');
  });

  it('refuses a text found nowhere, a short text and a reason holding the text, changing nothing', async () => {
    const log = readFileSync(join(root, 'log', 'demo', '000001.jsonl'));
    const cases: [string[], string][] = [
      [
        ['purge', 'nowhere in this log at all', '--project', 'demo', '--reason', 'x', '--json'],
        'NOT_FOUND',
      ],
      [['purge', 'Ines', '--project', 'demo', '--reason', 'x', '--json'], 'INVALID_INPUT'],
      [
        ['purge', PERSON, '--project', 'demo', '--reason', `drop ${PERSON}`, '--json'],
        'INVALID_INPUT',
      ],
    ];
    for (const [args, code] of cases) {
      const result = await mem(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect((JSON.parse(result.stderr) as { error: { code: string } }).error.code).toBe(code);
    }
    expect(readFileSync(join(root, 'log', 'demo', '000001.jsonl')).equals(log)).toBe(true);
  }, 120_000);

  it('over HTTP, by the sha of an evidence and of a memory line, with an admin token: the text leaves every file; a member token is refused', async () => {
    // Every projector `mem serve` opens, pgvector included: its files must lose the text too.
    const config = testConfig();
    const registry = await openRegistry({
      engine: new Engine({
        root,
        projectors: [projectorSqlite, projectorVault, projectorPgvector({ config })],
      }),
      version: '0.0.0-test',
      config,
      runJobs: false,
    });
    await registry.invoke('project_add', registry.local('local:test'), { name: 'demo' });
    await registry.invoke('principal_add', registry.local('local:test'), { name: 'carol' });
    await registry.invoke('principal_add', registry.local('local:test'), { name: 'bob' });
    for (const principal of ['carol', 'bob'])
      await registry.invoke('member_add', registry.local('local:test'), {
        project: 'demo',
        principal,
      });
    const admin = (await mint(registry, { principal: 'carol', capabilities: ['admin'] })).secret;
    const member = (await mint(registry, { principal: 'bob' })).secret;
    const server = await startServer(registry, {
      port: 0,
      rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 },
    });
    try {
      const log = readFileSync(join(root, 'log', 'demo', '000001.jsonl'));
      const body = (ref: string) => ({ ref, project: 'demo', reason: 'personal data' });
      const refused = await call(server.url, 'POST', '/memory/purge', {
        token: member,
        body: body(contentSha256(LINE)),
      });
      expect(refused.status).toBe(403);
      expect(readFileSync(join(root, 'log', 'demo', '000001.jsonl')).equals(log)).toBe(true);
      for (const [key, text] of [
        ['purge-line', LINE],
        ['purge-evidence', EVIDENCE],
      ] as const) {
        const purged = await call(server.url, 'POST', '/memory/purge', {
          token: admin,
          body: body(contentSha256(text)),
          headers: { 'idempotency-key': key },
        });
        expect(purged.status, JSON.stringify(purged.body)).toBe(200);
        expect(purged.body).toMatchObject({ project: 'demo', text_sha256: contentSha256(text) });
      }
    } finally {
      await server.close();
      await registry.close();
    }
    expect(holding(PERSON).map((file) => file.slice(root.length))).toEqual([]);
    expect(holding('Okonkwo')).toEqual([]);
    const verified = await mem(['verify', '--json']);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 240_000);
});
