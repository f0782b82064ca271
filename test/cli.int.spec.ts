import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/*
 * The built `mem` binary in real processes: exit codes, atomic appends, tamper detection and
 * the messages a user sees. `npm test` builds before vitest runs.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
let root: string;

function mem(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], { input, encoding: 'utf8', env: { ...process.env, MEM_ROOT: '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-cli-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem log append', () => {
  it('appends a batch, prints {appended, first_seq, last_seq}, and catches the projections up', () => {
    const result = mem(['log', 'append', '--project', 'demo', '--file', sample, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ appended: 21, first_seq: 1, last_seq: 21 });
    expect(existsSync(join(root, '.mem', 'items.sqlite'))).toBe(true);
    expect(readFileSync(join(root, 'vault', 'demo', 'infra-root-causes.md'), 'utf8')).toContain('chunks_used: 2');
  });

  it('reads stdin by default', () => {
    const result = mem(['log', 'append', '--project', 'demo'], readFileSync(sample, 'utf8'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/appended 21 events to demo \(seq 1\.\.21\)/);
  });

  it('refuses the whole batch when one line is bad: exit 1, names line, field and shape, appends nothing', () => {
    const lines = readFileSync(sample, 'utf8').trim().split('\n');
    lines[4] = lines[4]!.replace('"t":2', '"t":"two"');
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, `${lines.join('\n')}\n`);
    const result = mem(['log', 'append', '--project', 'demo', '--file', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 5: gate\.t: expected number, got "two"/);
    expect(result.stderr).toContain('[INVALID_EVENT]');
    expect(existsSync(join(root, 'log', 'demo'))).toBe(false);
  });

  it('refuses text that does not match its sha256, and JSON that is not JSON', () => {
    const lines = readFileSync(sample, 'utf8').trim().split('\n');
    const tampered = [...lines];
    tampered[5] = tampered[5]!.replace('Request Entity Too Large', 'Payload Too Large');
    writeFileSync(join(root, 'sha.jsonl'), tampered.join('\n'));
    expect(mem(['log', 'append', '--project', 'demo', '--file', join(root, 'sha.jsonl')]).stderr).toMatch(/line 6: evidence\.sha256 does not match its text.*\[SHA_MISMATCH\]/);
    writeFileSync(join(root, 'json.jsonl'), `${lines[0]}\n{"type": "run",\n`);
    const notJson = mem(['log', 'append', '--project', 'demo', '--file', join(root, 'json.jsonl'), '--json']);
    expect(notJson.code).toBe(1);
    expect(JSON.parse(notJson.stderr).error).toMatchObject({ code: 'INVALID_EVENT', details: { line: 2 } });
  });
});

describe('mem log show, rebuild, verify', () => {
  beforeEach(() => {
    expect(mem(['log', 'append', '--project', 'demo', '--file', sample]).code).toBe(0);
  });

  it('prints one run as JSONL', () => {
    const result = mem(['log', 'show', '--project', 'demo', '--run', 'run-2026-08-17-synthesis-1']);
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; run_id: string; seq: number });
    expect(events.map((e) => e.type)).toEqual(['run', 'chunk', 'gate', 'memory', 'run_end']);
    expect(events.every((e) => e.run_id === 'run-2026-08-17-synthesis-1')).toBe(true);
    expect(mem(['log', 'show', '--project', 'demo', '--from-seq', '20']).stdout.trim().split('\n')).toHaveLength(2);
  });

  it('verifies a sound root with exit 0, and exits 3 naming segment and line after tampering', () => {
    expect(mem(['verify']).code).toBe(0);
    const segment = join(root, 'log', 'demo', '000001.jsonl');
    const lines = readFileSync(segment, 'utf8').split('\n');
    lines[8] = lines[8]!.replace('"update":false', '"update":true');
    writeFileSync(segment, lines.join('\n'));
    const result = mem(['verify', '--json']);
    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout) as { ok: boolean; projects: { chain: { break: { segment: string; line: number } } }[] };
    expect(report.ok).toBe(false);
    expect(report.projects[0]!.chain.break).toMatchObject({ segment: '000001.jsonl', line: 10 });
  });

  it('reports a hand-edited vault note as a parity difference (exit 3) until a rebuild restores it', () => {
    const note = join(root, 'vault', 'demo', 'infra-root-causes.md');
    writeFileSync(note, `${readFileSync(note, 'utf8')}\nmy own line\n`);
    const drift = mem(['verify']);
    expect(drift.code).toBe(3);
    expect(drift.stdout).toMatch(/vault\/demo\/infra-root-causes\.md differs from a rebuild/);
    expect(mem(['rebuild', '--from-log', '--only', 'vault']).code).toBe(0);
    expect(mem(['verify']).code).toBe(0);
  });

  it('rebuilds byte-identically', () => {
    const before = readFileSync(join(root, '.mem', 'items.sqlite'));
    const note = readFileSync(join(root, 'vault', 'demo', 'index.md'));
    expect(mem(['rebuild', '--from-log']).code).toBe(0);
    expect(readFileSync(join(root, '.mem', 'items.sqlite')).equals(before)).toBe(true);
    expect(readFileSync(join(root, 'vault', 'demo', 'index.md')).equals(note)).toBe(true);
  });
});

describe('projection settings live in the log', () => {
  const evidenceDir = () => join(root, 'vault', 'demo', 'evidence');

  beforeEach(() => {
    expect(mem(['log', 'append', '--project', 'demo', '--file', sample]).code).toBe(0);
  });

  it('rebuilds evidence notes from the log alone after .mem/ and the vault are dropped', () => {
    expect(mem(['rebuild', '--from-log', '--emit-evidence-notes']).code).toBe(0);
    const notes = readdirSync(evidenceDir()).sort();
    expect(notes.length).toBeGreaterThan(0);
    const settings = mem(['log', 'show', '--project', '_system']).stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(settings.map((e) => e.type)).toEqual(['projection_settings_set']);
    rmSync(join(root, '.mem'), { recursive: true, force: true });
    rmSync(join(root, 'vault'), { recursive: true, force: true });
    expect(mem(['rebuild', '--from-log']).code).toBe(0);
    expect(readdirSync(evidenceDir()).sort()).toEqual(notes);
    expect(mem(['verify']).code).toBe(0);
  });

  it('appends a settings event only when the setting changes, and --no-emit-evidence-notes turns it off', () => {
    expect(mem(['rebuild', '--from-log', '--emit-evidence-notes']).code).toBe(0);
    expect(mem(['rebuild', '--from-log', '--emit-evidence-notes']).code).toBe(0);
    expect(mem(['rebuild', '--from-log', '--no-emit-evidence-notes']).code).toBe(0);
    expect(existsSync(evidenceDir())).toBe(false);
    const events = mem(['log', 'show', '--project', '_system']).stdout.trim().split('\n').map((line) => JSON.parse(line) as { emit_evidence_notes: boolean });
    expect(events.map((e) => e.emit_evidence_notes)).toEqual([true, false]);
  });

  it('ignores a leftover vault/.mem-settings.json with a one-line warning naming the flag', () => {
    writeFileSync(join(root, 'vault', '.mem-settings.json'), '{"emitEvidenceNotes":true}\n');
    const result = mem(['rebuild', '--from-log']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\.mem-settings\.json is no longer read.*mem rebuild --from-log --emit-evidence-notes/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(evidenceDir())).toBe(false);
  });

  it('refuses a settings event with a bad value, or outside _system, and appends nothing', () => {
    const bad = mem(['log', 'append', '--project', '_system', '--json'], '{"type":"projection_settings_set","emit_evidence_notes":"yes"}\n');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: 'INVALID_EVENT' });
    const elsewhere = mem(['log', 'append', '--project', 'demo', '--json'], '{"type":"projection_settings_set","emit_evidence_notes":true}\n');
    expect(elsewhere.code).toBe(1);
    expect(JSON.parse(elsewhere.stderr).error).toMatchObject({ code: 'INVALID_INPUT', details: { project: 'demo' } });
    expect(existsSync(join(root, 'log', '_system'))).toBe(false);
    expect(mem(['log', 'show', '--project', 'demo']).stdout.trim().split('\n')).toHaveLength(21);
  });
});

describe('administration commands', () => {
  it('open only the SQLite control store: a fresh root gets no PGlite directory, and verify still holds', () => {
    expect(mem(['principal', 'add', 'alice']).code).toBe(0);
    expect(mem(['project', 'add', 'alpha']).code).toBe(0);
    expect(mem(['project', 'add-member', 'alpha', 'alice']).code).toBe(0);
    expect(mem(['principal', 'list']).stdout).toBe('alice\talpha\n');
    expect(existsSync(join(root, '.mem', 'items.sqlite'))).toBe(true);
    expect(existsSync(join(root, '.mem', 'pg'))).toBe(false);
    const verify = mem(['verify']);
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
  ])('%j', (args) => {
    const result = mem(args);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toBe('');
  });
});

describe('mem ingest', () => {
  it('fails clearly (exit 1) when the project has no standing queries', () => {
    const result = mem(['ingest', '--project', 'nothing']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/queries\/nothing\.yaml: cannot read the standing queries of project nothing.*\[CONFIG_INVALID\]/);
  });

  it('plans a dry run without writing anything', () => {
    mkdirSync(join(root, 'queries'));
    cpSync(join(repo, 'test', 'fixtures', 'transcripts', 'claude'), join(root, 'claude'), { recursive: true });
    writeFileSync(join(root, 'queries', 'demo.yaml'), 'project: demo\nsources:\n  - claude:../claude\nqueries:\n  - id: bugs\n    question: What broke, and why?\n');
    const result = mem(['ingest', '--project', 'demo', '--dry-run', '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { chunks: number; records: { total: number; byRole: Record<string, number> }; tokens: { max: number } };
    expect(report.chunks).toBeGreaterThan(0);
    expect(report.records.byRole['assistant']).toBeGreaterThan(0);
    expect(report.tokens.max).toBeLessThanOrEqual(5000);
    expect(existsSync(join(root, 'log'))).toBe(false);
    expect(existsSync(join(root, '.mem'))).toBe(false);
  });
});
