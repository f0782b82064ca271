import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { appendedInProcess, memInProcess, memProcess, type MemRun } from './support/mem-cli.js';
import { seededRoots } from './support/seeded-root.js';

/*
 * Tampering with the tail of a log (issue 9, item 7): the chain walk alone cannot see an edited,
 * deleted or truncated last line, because nothing after it chains from it. The heads the
 * projections recorded can: `mem verify` names the segment and line, and `mem log append`
 * refuses (exit 3, CHAIN_BROKEN) without touching the log. Real files; the CLI in process, as
 * the cases are about what verify and append read and write, and one case runs both as the built
 * bin, for the exit status a shell sees (each real process loads PGlite again, seconds each).
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const nextRun = `${JSON.stringify({ type: 'run', run_id: 'run-tail-2', level: 'L1', query_id: 'infra-root-causes', input_level: 'chunk', model: 'heuristic', chunk_tokens: 5000, memory_budget: 1024, exit_gate: false })}\n`;
let root: string;
let segment: string;

/** How a case runs `mem --root <root> <args>`: in process, or as the built bin. */
type Mem = (args: string[], input?: string) => Promise<MemRun>;

const inProcess: Mem = (args, input) => memInProcess(['--root', root, ...args], { input });
const builtBin: Mem = (args, input) =>
  Promise.resolve(memProcess(['--root', root, ...args], { input }));

interface Report {
  ok: boolean;
  projects: {
    chain: {
      ok: boolean;
      break?: { segment: string; line: number; code: string; message: string };
    };
  }[];
}

async function verifyReport(
  mem: Mem = inProcess,
): Promise<{ code: number | null; report: Report }> {
  const result = await mem(['verify', '--json']);
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

/** Verify exits 3 naming the line, and an append is refused with CHAIN_BROKEN, the log bytes unchanged. */
async function expectLocated(line: number, mem: Mem = inProcess): Promise<void> {
  const { code, report } = await verifyReport(mem);
  expect(code).toBe(3);
  expect(report.projects[0]!.chain.break).toMatchObject({
    segment: '000001.jsonl',
    line,
    code: 'CHAIN_BROKEN',
  });
  const before = readFileSync(segment);
  const append = await mem(['log', 'append', '--project', 'demo', '--json'], nextRun);
  expect(append.code).toBe(3);
  expect(JSON.parse(append.stderr).error).toMatchObject({
    code: 'CHAIN_BROKEN',
    details: { project: 'demo', segment: '000001.jsonl', line },
  });
  expect(readFileSync(segment).equals(before)).toBe(true);
}

// The sample appended once for the file; each case tampers with its own copy.
const seeded = seededRoots('mem-tail-', (seed) => appendedInProcess(seed, sample));

beforeEach(() => {
  root = seeded();
  segment = join(root, 'log', 'demo', '000001.jsonl');
});

describe('a tampered log tail', () => {
  it('an edited last line is located by verify and refused by append, as the built bin', async () => {
    const lines = readFileSync(segment, 'utf8').split('\n');
    expect(lines[20]).toContain('"chunks_seen":1');
    lines[20] = lines[20]!.replace('"chunks_seen":1', '"chunks_seen":2');
    writeFileSync(segment, lines.join('\n'));
    await expectLocated(21, builtBin);
  });

  it('a deleted last line is located by verify and refused by append', async () => {
    const lines = readFileSync(segment, 'utf8').split('\n');
    writeFileSync(segment, `${lines.slice(0, 20).join('\n')}\n`);
    await expectLocated(21);
  });

  it('a segment truncated to 0 bytes is located by verify and refused by append', async () => {
    truncateSync(segment, 0);
    await expectLocated(1);
  });

  it('a torn, unacknowledged last line is not tampering: verify passes and the next append repairs it', async () => {
    appendFileSync(segment, '{"seq":22,"ts":"2026-08-17T09:00:00.000Z","proj');
    expect(await verifyReport()).toMatchObject({ code: 0, report: { ok: true } });
    const append = await inProcess(['log', 'append', '--project', 'demo', '--json'], nextRun);
    expect(append.code).toBe(0);
    // The recovery event takes seq 22, the caller's run seq 23.
    expect(JSON.parse(append.stdout)).toEqual({ appended: 1, first_seq: 23, last_seq: 23 });
    expect(await verifyReport()).toMatchObject({ code: 0, report: { ok: true } });
  });
});
