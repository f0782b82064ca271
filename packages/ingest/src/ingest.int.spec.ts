import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunks, chunkPolicy, qwenTokenizer } from '@mem/chunk';
import { copiedText, memoryLines, nearDuplicate, splitMemoryLines, type LogEvent } from '@mem/core';
import { Engine } from '@mem/engine';
import { heuristicController, synthesisController } from '@mem/extractor';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { sourceForPath } from '@mem/sources';
import { ingest } from './ingest.js';
import { loadStandingQueries } from './standing-queries.js';
import { synthesize } from './synthesize.js';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'transcripts');
const tokenizer = qwenTokenizer();
let root: string;
let engine: Engine;

const QUERIES = `project: demo
sources:
  - claude:../sessions/claude
  - pi:../sessions/pi
queries:
  - id: architecture-decisions
    question: What architectural decisions were made, with reasoning and rejected alternatives?
  - id: bugs-and-root-causes
    question: What bugs or failures were found, what was the root cause, and how were they fixed?
  - id: open-questions
    question: What questions were raised and left unresolved?
synthesis:
  question: What is the current state of this project, and what should someone know before working on it?
  exit_gate: true
`;

async function events(): Promise<LogEvent[]> {
  const out: LogEvent[] = [];
  for await (const { event } of engine.read('demo')) out.push(event);
  return out;
}

function vaultBytes(): Record<string, string> {
  const dir = join(root, 'vault', 'demo');
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
      .map((file) => [file, readFileSync(file, 'utf8')]),
  );
}

async function run() {
  const config = loadStandingQueries(join(root, 'queries'), 'demo');
  return ingest({ engine, config, controller: heuristicController(tokenizer), tokenizer });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-ingest-'));
  mkdirSync(join(root, 'queries'));
  writeFileSync(join(root, 'queries', 'demo.yaml'), QUERIES);
  cpSync(join(fixtures, 'claude'), join(root, 'sessions', 'claude'), { recursive: true });
  mkdirSync(join(root, 'sessions', 'pi'));
  for (const file of ['pi-mono-compact.jsonl', 'pi-mono-large-session.jsonl'])
    cpSync(join(fixtures, 'pi', file), join(root, 'sessions', 'pi', file));
  engine = new Engine({ root, projectors: [projectorSqlite, projectorVault] });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ingest over the real transcripts', () => {
  it('keeps an update-rate above 0 and at most 30% per query, and the log agrees with the report', async () => {
    const report = await run();
    expect(report.chunks).toBeGreaterThan(50);
    const log = await events();
    for (const q of report.queries) {
      expect(q.chunksSeen).toBe(report.chunks);
      expect(q.updateRate).toBeGreaterThan(0);
      expect(q.updateRate).toBeLessThanOrEqual(0.3);
      const runEvents = log.filter((e) => 'run_id' in e && e.run_id === q.runId);
      const gates = runEvents.filter((e) => e.type === 'gate');
      const memories = runEvents.filter((e) => e.type === 'memory');
      expect(gates).toHaveLength(q.chunksSeen);
      expect(memories).toHaveLength(q.chunksUsed);
      expect(q.updateRate).toBeCloseTo(q.chunksUsed / q.chunksSeen, 10);
      // Closed gate → no evidence and no memory at that step; memory stays within budget.
      for (const gate of gates) {
        if (gate.type !== 'gate' || gate.update) continue;
        expect(
          runEvents.some((e) => (e.type === 'memory' || e.type === 'evidence') && e.t === gate.t),
        ).toBe(false);
      }
      for (const memory of memories)
        expect(memory.type === 'memory' && memory.tokens).toBeLessThanOrEqual(1024);
      expect(runEvents.at(-1)).toMatchObject({
        type: 'run_end',
        chunks_seen: q.chunksSeen,
        chunks_used: q.chunksUsed,
      });
    }
    const verified = await engine.verify();
    expect(verified.projects[0]!.provenance).toMatchObject({ ok: true, total: 0 });
    expect(verified.ok).toBe(true);
  });

  it('writes nothing when re-run over the same sources', async () => {
    const head = await engine.head('demo');
    const vault = vaultBytes();
    const report = await run();
    expect(report.appended).toBe(0);
    expect(report.queries.every((q) => !q.started && q.chunksSkipped === report.chunks)).toBe(true);
    expect(await engine.head('demo')).toEqual(head);
    expect(vaultBytes()).toEqual(vault);
  });

  it('reads only the chunks of a newly added session file', async () => {
    const added = join(root, 'sessions', 'pi', 'pi-mono-session.jsonl');
    cpSync(join(fixtures, 'pi', 'pi-mono-session.jsonl'), added);
    let expected = 0;
    for await (const _ of chunks(sourceForPath(added, 'pi'), chunkPolicy(), tokenizer))
      expected += 1;
    const before = (await events()).length;
    const report = await run();
    for (const q of report.queries) {
      expect(q.chunksSeen).toBe(expected);
      expect(q.chunksSkipped).toBe(report.chunks - expected);
    }
    const newEvents = (await events()).slice(before);
    expect(newEvents.filter((e) => e.type === 'chunk')).toHaveLength(
      expected * report.queries.length,
    );
  });

  it('reads a transcript that grew since the last ingest from its new records on, never gating a record twice', async () => {
    const lines = readFileSync(join(fixtures, 'pi', 'pi-mono-session.jsonl'), 'utf8').split('\n');
    const growing = join(root, 'sessions', 'pi', 'growing-session.jsonl');
    writeFileSync(growing, `${lines.slice(0, 200).join('\n')}\n`);
    await run();
    writeFileSync(growing, `${lines.join('\n')}`);
    await run();
    const log = await events();
    const queries = new Map(
      log
        .filter((e) => e.type === 'run')
        .map((e) => [e.type === 'run' ? e.run_id : '', e.type === 'run' ? e.query_id : null]),
    );
    const covered = new Map<string, Set<number>>();
    for (const e of log) {
      if (e.type !== 'chunk' || e.source !== 'pi:growing-session' || e.span === null) continue;
      const key = String(queries.get(e.run_id));
      const seen = covered.get(key) ?? new Set<number>();
      covered.set(key, seen);
      for (let ordinal = e.span[0]; ordinal < e.span[1]; ordinal++) {
        expect(seen.has(ordinal)).toBe(false);
        seen.add(ordinal);
      }
    }
    expect(covered.size).toBe(3);
    expect((await engine.verify()).ok).toBe(true);
  });

  it('synthesises the L1 memories at L2, then has nothing new to read', async () => {
    const config = loadStandingQueries(join(root, 'queries'), 'demo');
    const first = await synthesize({
      engine,
      config,
      controller: synthesisController(tokenizer),
      tokenizer,
    });
    expect(first.started).toBe(true);
    expect(first.chunksUsed).toBeGreaterThan(0);
    const l2 = (await events()).filter((e) => e.type === 'memory' && e.level === 'L2');
    expect(l2.length).toBeGreaterThan(0);
    const l1Shas = new Set(
      (await events())
        .filter((e) => e.type === 'memory' && e.level === 'L1')
        .map((e) => (e.type === 'memory' ? e.sha256 : '')),
    );
    for (const memory of l2)
      if (memory.type === 'memory')
        for (const parent of memory.parents) expect(l1Shas.has(parent)).toBe(true);
    const again = await synthesize({
      engine,
      config,
      controller: synthesisController(tokenizer),
      tokenizer,
    });
    expect(again.started).toBe(false);
    expect(readFileSync(join(root, 'vault', 'demo', 'index.md'), 'utf8')).toMatch(
      /^---\nproject: demo\nlevel: L2\n/,
    );
    expect((await engine.verify()).ok).toBe(true);
  });

  it('updates the synthesis on few of its steps, each reading many L1 lines, and keeps no line twice', async () => {
    const log = await events();
    const gates = log.filter((e) => e.type === 'gate' && e.level === 'L2');
    const used = gates.filter((e) => e.type === 'gate' && e.update).length;
    // Lowest non-zero rate of a step per L1 memory was one in three: steps now are batches of lines.
    expect(used).toBeGreaterThan(0);
    expect(used / gates.length).toBeLessThanOrEqual(0.3);
    const l1 = new Map<string, string[]>();
    for (const e of log)
      if (e.type === 'memory' && e.level === 'L1') l1.set(e.sha256, splitMemoryLines(e.text));
    const [last] = log.filter((e) => e.type === 'memory' && e.level === 'L2').slice(-1);
    if (last?.type !== 'memory') throw new Error('no L2 memory');
    const lines = memoryLines(last);
    expect(lines.length).toBeGreaterThan(3);
    for (const [i, a] of lines.entries())
      for (const b of lines.slice(i + 1))
        expect(nearDuplicate(a.text, b.text), `${a.text}\n  ~ ${b.text}`).toBe(false);
    // Each L2 line copies a line of every L1 memory it rests on (folded: a near-duplicate of it).
    for (const line of lines)
      for (const parent of line.parents)
        expect(
          l1.get(parent)!.some((held) => nearDuplicate(copiedText(line.text), held)),
          line.text,
        ).toBe(true);
  });
});
