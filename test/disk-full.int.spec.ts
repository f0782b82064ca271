import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountTmpfs, tmpfsSupport, type SmallTmpfs } from './support/tmpfs.js';

/*
 * The built `mem` binary ingesting with its log on a real, full tmpfs: the batch that did not
 * fit is gone whole, the error says NO_SPACE, and a rerun once there is room redoes that chunk,
 * so the log ends up with every chunk, gate, evidence and memory an ingest on a roomy disk writes.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const transcript = join(repo, 'test', 'fixtures', 'transcripts', 'claude', 'spotter-258c7280-subagents-agent-acompact-fffbd0.jsonl');
const support = tmpfsSupport();
const onTmpfs = support.ok ? describe : describe.skip;

let base: string;
let fs: SmallTmpfs | undefined;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mem-cli-nospace-'));
});
afterEach(() => {
  fs?.unmount();
  fs = undefined;
  rmSync(base, { recursive: true, force: true });
});

/** A data root with the demo's standing questions over one Claude Code session that the heuristic uses chunks of. */
function dataRoot(name: string): string {
  const root = join(base, name);
  mkdirSync(join(root, 'queries'), { recursive: true });
  mkdirSync(join(root, 'sessions'));
  copyFileSync(transcript, join(root, 'sessions', 'session.jsonl'));
  const demo = readFileSync(join(repo, 'queries', 'demo.yaml'), 'utf8')
    .replace('claude:../test/fixtures/transcripts/claude', 'claude:../sessions')
    .replace(/^ {2}- pi:.*\n/m, '');
  writeFileSync(join(root, 'queries', 'demo.yaml'), demo);
  return root;
}

function mem(root: string, args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], { encoding: 'utf8', env: { ...process.env, MEM_ROOT: '', OPENAI_BASE_URL: '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface LoggedLine {
  type: string;
  run_id?: string;
  query_id?: string | null;
  sha256?: string;
}

function events(root: string): LoggedLine[] {
  const text = readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as LoggedLine);
}

/** Per standing query: the chunks it gated, the evidence it kept and how many memories it wrote. */
function decisions(root: string): Record<string, { chunks: string[]; evidence: string[]; memories: number }> {
  const queryOf = new Map<string, string>();
  const out: Record<string, { chunks: string[]; evidence: string[]; memories: number }> = {};
  for (const event of events(root)) {
    if (event.type === 'run') queryOf.set(event.run_id!, event.query_id!);
    const query = event.run_id ? queryOf.get(event.run_id) : undefined;
    if (!query) continue;
    const entry = (out[query] ??= { chunks: [], evidence: [], memories: 0 });
    if (event.type === 'chunk') entry.chunks.push(event.sha256!);
    if (event.type === 'evidence') entry.evidence.push(event.sha256!);
    if (event.type === 'memory') entry.memories += 1;
  }
  for (const entry of Object.values(out)) {
    entry.chunks.sort();
    entry.evidence.sort();
  }
  return out;
}

onTmpfs(support.ok ? 'mem ingest on a full disk' : `mem ingest on a full disk (skipped: ${support.reason})`, () => {
  it('fails with exit 1 and NO_SPACE naming the segment, keeps only whole batches, and the rerun redoes the chunk that did not fit', () => {
    const roomy = dataRoot('roomy');
    expect(mem(roomy, ['ingest', '--project', 'demo']).code).toBe(0);
    const expected = decisions(roomy);
    expect(Object.values(expected).reduce((n, q) => n + q.memories, 0)).toBeGreaterThan(1);
    const logBytes = statSync(join(roomy, 'log', 'demo', '000001.jsonl')).size;

    const full = dataRoot('full');
    fs = mountTmpfs(join(full, 'log'), 256 * 1024);
    // Room for about half the log: the ingest runs out of space part-way through a batch.
    fs.fill(Math.floor(logBytes / 2));
    const failed = mem(full, ['ingest', '--project', 'demo']);
    expect(failed.code).toBe(1);
    const segment = join(full, 'log', 'demo', '000001.jsonl');
    expect(failed.stderr).toContain('[NO_SPACE]');
    expect(failed.stderr).toContain(segment);
    expect(failed.stderr).not.toMatch(/undefined|ENOSPC: no space left on device, write/);
    const kept = events(full);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.at(-1)!.type).not.toBe('chunk');

    fs.drain();
    const rerun = mem(full, ['ingest', '--project', 'demo']);
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    expect(decisions(full)).toEqual(expected);
    const verified = mem(full, ['verify']);
    expect(verified.stdout + verified.stderr).not.toContain('FAIL');
    expect(verified.code).toBe(0);
  }, 300_000);
});
