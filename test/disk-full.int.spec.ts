import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { memoryPayloads } from './api/support.js';
import { mountTmpfs, tmpfsSupport, type SmallTmpfs } from './support/tmpfs.js';
import { memErrorOf } from './support/thrown.js';

/*
 * The built `mem` binary ingesting with its log on a real, full tmpfs: the batch that did not
 * fit is gone whole, the error says NO_SPACE, and a rerun once there is room redoes that chunk,
 * so the log ends up with every chunk, gate, evidence and memory an ingest on a roomy disk writes.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const transcript = join(
  repo,
  'test',
  'fixtures',
  'transcripts',
  'claude',
  'spotter-258c7280-subagents-agent-acompact-fffbd0.jsonl',
);
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
  // Small chunks, so the session is many batches and a half-full disk stops one part-way (the
  // session is one compaction summary: at the default 5000 tokens it is a single chunk).
  writeFileSync(join(root, 'queries', 'demo.yaml'), `${demo}chunk_tokens: 256\n`);
  return root;
}

function mem(root: string, args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MEM_ROOT: '', OPENAI_BASE_URL: '' },
  });
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
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as LoggedLine);
}

/** Per standing query: the chunks it gated, the evidence it kept and how many memories it wrote. */
function decisions(
  root: string,
): Record<string, { chunks: string[]; evidence: string[]; memories: number }> {
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

onTmpfs(
  support.ok
    ? 'mem ingest on a full disk'
    : `mem ingest on a full disk (skipped: ${support.reason})`,
  () => {
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
  },
);

onTmpfs(
  support.ok
    ? 'projections on a full disk'
    : `projections on a full disk (skipped: ${support.reason})`,
  () => {
    const big = (run: string) =>
      memoryPayloads(
        run,
        `${run}: the disk filled up while the build wrote its cache. `.repeat(800),
        `${run}: a full disk broke the build.`,
      ).payloads;

    for (const [where, dir, expectedPath] of [
      // Under `.mem/` the first write of a catch-up is the projection generation's mark, one
      // byte appended to a file whose block is already there (stop 35: it was a new file
      // renamed over the old); the first write that needs a block is the item store's.
      ['the SQLite item store', '.mem', '.mem/items.sqlite'],
      ['the vault', 'vault', 'vault/'],
    ] as const) {
      it(`${where}: the append is durable, the error is NO_SPACE naming the file, and the next catch-up redoes it`, async () => {
        const root = join(base, 'root');
        mkdirSync(root);
        // Room for run-1's store as a rebuild writes it (live file, FTS scratch and canonical
        // copy side by side, migration 0025's item_fts in each); fill() then leaves none.
        fs = mountTmpfs(join(root, dir), 2 * 1024 * 1024);
        const engine = new Engine({ root, projectors: [projectorSqlite, projectorVault] });
        await engine.append('demo', big('run-1'), { kind: 'cli' });
        fs.fill(0);

        const error = await memErrorOf(engine.append('demo', big('run-2'), { kind: 'cli' }));
        expect(error.code, error.message).toBe('NO_SPACE');
        expect(String(error.details['path'])).toContain(join(root, expectedPath));
        expect(error.message).toContain(join(root, expectedPath));
        // The log is the truth: the events are in it, and the error says which seqs are durable.
        expect(error.details).toMatchObject({ project: 'demo', first_seq: 7, last_seq: 12 });
        expect((await engine.head('demo')).seq).toBe(12);

        fs.drain();
        await engine.catchUp(['demo']);
        const report = await engine.verify({ project: 'demo' });
        expect(report.ok).toBe(true);
        // The engine keeps the item store open between catch-ups: closed, so the mount can go.
        await engine.close();
      }, 120_000);
    }
  },
);
