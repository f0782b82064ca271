import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import {
  ALL_PLANTED,
  FIELD_SECRETS,
  claudeTranscriptWithSecrets,
} from './support/planted-secrets.js';
import { hermeticEnv } from './support/mem-cli.js';

/*
 * Item 3 of issue 9 through the built `mem` binary: a Claude Code session carrying every planted
 * secret in its four text paths and in its session id (the source), cwd and uuids is ingested
 * from a `claude:` source; then nothing under the data root (log, items.sqlite, the embedded
 * Postgres and its WAL, the vault) holds any of them. `mem log append` is scrubbed the same way.
 */
const bin = join(import.meta.dirname, '..', 'packages', 'cli', 'bin', 'mem.js');
let root: string;

function mem(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], {
    input,
    encoding: 'utf8',
    env: hermeticEnv({ MEM_CLAUDE_PROJECTS: join(root, 'claude-projects') }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** `file: secret` for every planted secret found in any file mem wrote (the input transcript aside). */
function leaks(secrets: readonly string[]): string[] {
  return filesUnder(root)
    .filter((file) => !file.startsWith(join(root, 'claude-projects')))
    .flatMap((file) => {
      const bytes = readFileSync(file).toString('latin1');
      return secrets
        .filter((s) => bytes.includes(s))
        .map((s) => `${file.slice(root.length)}: ${s}`);
    });
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-secrets-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('no planted secret reaches any file mem writes', () => {
  it('mem ingest of a Claude Code session: log, items.sqlite, embedded Postgres, vault', () => {
    const sessions = join(root, 'claude-projects', '-home-dev-app');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, 'session.jsonl'), claudeTranscriptWithSecrets());
    mkdirSync(join(root, 'queries'));
    writeFileSync(
      join(root, 'queries', 'demo.yaml'),
      'project: demo\nsources:\n  - claude:-home-dev-app\nqueries:\n  - id: bugs\n    question: What bugs or failures were found, and how were they fixed?\n',
    );
    const ingest = mem(['ingest', '--project', 'demo']);
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
    const log = readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8');
    // Something was kept, so the greps below look at stored text, not at an empty store.
    expect(log).toContain('"type":"evidence"');
    expect(log).toContain('claude:s-[REDACTED:github_token]');
    expect(filesUnder(join(root, '.mem')).some((f) => f.endsWith('items.sqlite'))).toBe(true);
    expect(filesUnder(join(root, 'vault')).length).toBeGreaterThan(0);
    expect(filesUnder(join(root, '.mem')).some((f) => f.includes(`${join('.mem', 'pg')}/`))).toBe(
      true,
    );
    expect(leaks(ALL_PLANTED)).toEqual([]);
    // The scrubbed source is a stable identity: a second ingest finds nothing new.
    expect(mem(['ingest', '--project', 'demo']).code).toBe(0);
    expect(readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8')).toBe(log);
  });

  it('mem log append: secrets in source and think are scrubbed; a sha256 of unscrubbed text is refused and nothing is written', () => {
    const sha = contentSha256('x');
    const chunk = {
      type: 'chunk',
      run_id: 'r1',
      level: 'L0',
      t: 1,
      source: `claude:s-${FIELD_SECRETS.session}`,
      span: [0, 1],
      sha256: sha,
    };
    const run = {
      type: 'run',
      run_id: 'r1',
      level: 'L1',
      query_id: 'bugs',
      input_level: 'chunk',
      model: 'heuristic',
      chunk_tokens: 100,
      memory_budget: 100,
      exit_gate: false,
    };
    const gate = {
      type: 'gate',
      run_id: 'r1',
      level: 'L1',
      t: 1,
      update: false,
      exit: false,
      think: `saw curl -u ops:${'Qz8hunterCu4'}`,
      latency_ms: 1,
    };
    const ok = mem(
      ['log', 'append', '--project', 'demo', '--json'],
      [run, chunk, gate].map((p) => JSON.stringify(p)).join('\n'),
    );
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(leaks([FIELD_SECRETS.session, 'Qz8hunterCu4'])).toEqual([]);

    const text = `the deploy failed: ${FIELD_SECRETS.cwd}`;
    const evidence = {
      type: 'evidence',
      run_id: 'r1',
      level: 'L0',
      t: 1,
      source: 'claude:s',
      text,
      sha256: contentSha256(text),
    };
    const before = readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8');
    const refused = mem(['log', 'append', '--project', 'demo'], JSON.stringify(evidence));
    expect(refused.code).toBe(2); // a refused payload line is bad input: exit 2 (README, exit codes)
    expect(refused.stderr).toContain('[SHA_MISMATCH]');
    expect(refused.stderr).toContain(
      contentSha256('the deploy failed: [REDACTED:huggingface_token]'),
    );
    expect(refused.stderr).not.toContain(FIELD_SECRETS.cwd);
    expect(readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8')).toBe(before);
  });
});
