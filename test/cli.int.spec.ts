import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalBytes } from '@mem/projector-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * `mem`: exit codes, atomic appends, tamper detection and the messages a user sees. Cases about
 * arguments and output run in process (a real process per case loads PGlite again, seconds
 * each); stdin piping, the exit codes of the installed bin and one case per command family run
 * the built binary in a real process (`npm test` builds before vitest runs).
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
let root: string;

/** Arguments and output: in process, through the CLI's entry. */
const mem = (args: string[], input?: string) =>
  memInProcess(['--root', root, ...args], { input, cwd: root });
/** The installed bin in a real process: one smoke per command family, and what is about processes. */
const memReal = (args: string[], input?: string) =>
  memProcess(['--root', root, ...args], { input, cwd: root });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-cli-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem log append', () => {
  it('appends a batch, prints {appended, first_seq, last_seq}, and catches the projections up', async () => {
    const result = await mem(['log', 'append', '--project', 'demo', '--file', sample, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ appended: 21, first_seq: 1, last_seq: 21 });
    expect(existsSync(join(root, '.mem', 'items.sqlite'))).toBe(true);
    expect(readFileSync(join(root, 'vault', 'demo', 'infra-root-causes.md'), 'utf8')).toContain(
      'chunks_used: 2',
    );
  });

  it('reads stdin by default', () => {
    const result = memReal(['log', 'append', '--project', 'demo'], readFileSync(sample, 'utf8'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/appended 21 events to demo \(seq 1\.\.21\)/);
  });

  it('refuses the whole batch when one line is bad: exit 2 (its input refused), names line, field and shape, appends nothing', async () => {
    const lines = readFileSync(sample, 'utf8').trim().split('\n');
    lines[4] = lines[4]!.replace('"t":2', '"t":"two"');
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, `${lines.join('\n')}\n`);
    const result = await mem(['log', 'append', '--project', 'demo', '--file', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/line 5: gate\.t: expected number, got "two"/);
    expect(result.stderr).toContain('[INVALID_EVENT]');
    expect(existsSync(join(root, 'log', 'demo'))).toBe(false);
  });

  it('refuses text that does not match its sha256, and JSON that is not JSON', async () => {
    const lines = readFileSync(sample, 'utf8').trim().split('\n');
    const tampered = [...lines];
    tampered[5] = tampered[5]!.replace('Request Entity Too Large', 'Payload Too Large');
    writeFileSync(join(root, 'sha.jsonl'), tampered.join('\n'));
    expect(
      (await mem(['log', 'append', '--project', 'demo', '--file', join(root, 'sha.jsonl')])).stderr,
    ).toMatch(/line 6: evidence\.sha256 does not match its text.*\[SHA_MISMATCH\]/);
    writeFileSync(join(root, 'json.jsonl'), `${lines[0]}\n{"type": "run",\n`);
    const notJson = await mem([
      'log',
      'append',
      '--project',
      'demo',
      '--file',
      join(root, 'json.jsonl'),
      '--json',
    ]);
    expect(notJson.code).toBe(2);
    expect(JSON.parse(notJson.stderr).error).toMatchObject({
      code: 'INVALID_EVENT',
      details: { line: 2 },
    });
  });
});

describe('mem log show, rebuild, verify', () => {
  beforeEach(async () => {
    expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
  });

  it('prints one run as JSONL', async () => {
    const result = await mem([
      'log',
      'show',
      '--project',
      'demo',
      '--run',
      'run-2026-08-17-synthesis-1',
    ]);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; run_id: string; seq: number });
    expect(events.map((e) => e.type)).toEqual(['run', 'chunk', 'gate', 'memory', 'run_end']);
    expect(events.every((e) => e.run_id === 'run-2026-08-17-synthesis-1')).toBe(true);
    expect(
      (await mem(['log', 'show', '--project', 'demo', '--from-seq', '20'])).stdout
        .trim()
        .split('\n'),
    ).toHaveLength(2);
  });

  it('verifies a sound root with exit 0, and exits 3 naming segment and line after tampering', () => {
    expect(memReal(['verify']).code).toBe(0);
    const segment = join(root, 'log', 'demo', '000001.jsonl');
    const lines = readFileSync(segment, 'utf8').split('\n');
    lines[8] = lines[8]!.replace('"update":false', '"update":true');
    writeFileSync(segment, lines.join('\n'));
    const result = memReal(['verify', '--json']);
    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      projects: { chain: { break: { segment: string; line: number } } }[];
    };
    expect(report.ok).toBe(false);
    expect(report.projects[0]!.chain.break).toMatchObject({ segment: '000001.jsonl', line: 10 });
  });

  it('reports a hand-edited vault note as a parity difference (exit 3) until a rebuild told to discard the edit restores it', async () => {
    const note = join(root, 'vault', 'demo', 'infra-root-causes.md');
    writeFileSync(note, `${readFileSync(note, 'utf8')}\nmy own line\n`);
    const drift = await mem(['verify']);
    expect(drift.code).toBe(3);
    expect(drift.stdout).toMatch(/vault\/demo\/infra-root-causes\.md differs from a rebuild/);
    expect(drift.stdout).toContain('[body_edited]');
    expect((await mem(['rebuild', '--from-log', '--only', 'vault'])).code).not.toBe(0);
    expect((await mem(['rebuild', '--from-log', '--only', 'vault', '--discard-edits'])).code).toBe(
      0,
    );
    expect((await mem(['verify'])).code).toBe(0);
  });

  it('rebuilds byte-identically', () => {
    // Every byte but the header's install counters (canonicalBytes): the rebuild writes the
    // store in place, under any connection that holds it.
    const before = canonicalBytes(join(root, '.mem', 'items.sqlite'));
    const note = readFileSync(join(root, 'vault', 'demo', 'index.md'));
    expect(memReal(['rebuild', '--from-log']).code).toBe(0);
    expect(canonicalBytes(join(root, '.mem', 'items.sqlite')).equals(before)).toBe(true);
    expect(readFileSync(join(root, 'vault', 'demo', 'index.md')).equals(note)).toBe(true);
  });
});

describe('projection settings live in the log', () => {
  const evidenceDir = () => join(root, 'vault', 'demo', 'evidence');

  beforeEach(async () => {
    expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
  });

  it('rebuilds evidence notes from the log alone after .mem/ and the vault are dropped', async () => {
    expect((await mem(['rebuild', '--from-log', '--emit-evidence-notes'])).code).toBe(0);
    const notes = readdirSync(evidenceDir()).sort();
    expect(notes.length).toBeGreaterThan(0);
    const settings = (await mem(['log', 'show', '--project', '_system'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(settings.map((e) => e.type)).toEqual(['projection_settings_set']);
    rmSync(join(root, '.mem'), { recursive: true, force: true });
    rmSync(join(root, 'vault'), { recursive: true, force: true });
    expect((await mem(['rebuild', '--from-log'])).code).toBe(0);
    expect(readdirSync(evidenceDir()).sort()).toEqual(notes);
    expect((await mem(['verify'])).code).toBe(0);
  });

  it('appends a settings event only when the setting changes, and --no-emit-evidence-notes turns it off', async () => {
    expect((await mem(['rebuild', '--from-log', '--emit-evidence-notes'])).code).toBe(0);
    expect((await mem(['rebuild', '--from-log', '--emit-evidence-notes'])).code).toBe(0);
    expect((await mem(['rebuild', '--from-log', '--no-emit-evidence-notes'])).code).toBe(0);
    expect(existsSync(evidenceDir())).toBe(false);
    const events = (await mem(['log', 'show', '--project', '_system'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { emit_evidence_notes: boolean });
    expect(events.map((e) => e.emit_evidence_notes)).toEqual([true, false]);
  });

  it('ignores a leftover vault/.mem-settings.json with a one-line warning naming the flag', async () => {
    writeFileSync(join(root, 'vault', '.mem-settings.json'), '{"emitEvidenceNotes":true}\n');
    const result = await mem(['rebuild', '--from-log']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /\.mem-settings\.json is no longer read.*mem rebuild --from-log --emit-evidence-notes/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(evidenceDir())).toBe(false);
  });

  it('refuses a settings event with a bad value, or outside _system, and appends nothing', async () => {
    const bad = await mem(
      ['log', 'append', '--project', '_system', '--json'],
      '{"type":"projection_settings_set","emit_evidence_notes":"yes"}\n',
    );
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: 'INVALID_EVENT' });
    const elsewhere = await mem(
      ['log', 'append', '--project', 'demo', '--json'],
      '{"type":"projection_settings_set","emit_evidence_notes":true}\n',
    );
    expect(elsewhere.code).toBe(2);
    expect(JSON.parse(elsewhere.stderr).error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { project: 'demo' },
    });
    expect(existsSync(join(root, 'log', '_system'))).toBe(false);
    expect(
      (await mem(['log', 'show', '--project', 'demo'])).stdout.trim().split('\n'),
    ).toHaveLength(21);
  });
});

describe('administration commands', () => {
  it('open only the SQLite control store: a fresh root gets no PGlite directory, and verify still holds', async () => {
    expect((await mem(['principal', 'add', 'alice'])).code).toBe(0);
    expect((await mem(['project', 'add', 'alpha'])).code).toBe(0);
    expect((await mem(['project', 'add-member', 'alpha', 'alice'])).code).toBe(0);
    expect((await mem(['principal', 'list'])).stdout).toBe('alice\talpha\n');
    expect(existsSync(join(root, '.mem', 'items.sqlite'))).toBe(true);
    expect(existsSync(join(root, '.mem', 'pg'))).toBe(false);
    const verify = await mem(['verify']);
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
  });
});

describe('usage errors exit 2', () => {
  it.each([
    [['log', 'append']],
    [['log', 'show', '--project', 'demo', '--from-seq', 'abc']],
    [['rebuild', '--only', 'elastic']],
    [['verify', '--project', '../etc']],
    [['frobnicate']],
  ])('%j', async (args) => {
    const result = await mem(args);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toBe('');
  });
});

describe('mem ingest', () => {
  it('fails clearly (exit 1) when the project has no standing queries (nor anything else: NOT_FOUND)', () => {
    mkdirSync(join(root, 'queries'));
    const result = memReal(['ingest', '--project', 'nothing']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /no project "nothing" under .*no queries\/nothing\.yaml.*\[NOT_FOUND\]/,
    );
  });

  it('plans a dry run without writing anything', async () => {
    mkdirSync(join(root, 'queries'));
    cpSync(join(repo, 'test', 'fixtures', 'transcripts', 'claude'), join(root, 'claude'), {
      recursive: true,
    });
    writeFileSync(
      join(root, 'queries', 'demo.yaml'),
      'project: demo\nsources:\n  - claude:../claude\nqueries:\n  - id: bugs\n    question: What broke, and why?\n',
    );
    const result = await mem(['ingest', '--project', 'demo', '--dry-run', '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      chunks: number;
      records: { total: number; byRole: Record<string, number> };
      tokens: { max: number };
    };
    expect(report.chunks).toBeGreaterThan(0);
    expect(report.records.byRole['assistant']).toBeGreaterThan(0);
    expect(report.tokens.max).toBeLessThanOrEqual(5000);
    expect(existsSync(join(root, 'log'))).toBe(false);
    expect(existsSync(join(root, '.mem'))).toBe(false);
  });
});
