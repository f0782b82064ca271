import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genesisHash, type LogEvent, type Payload } from '@mem/core';
import { Engine } from '@mem/engine';
import { EventLog } from '@mem/log';
import { openItemStore, projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { chainBatch, type ChainLink } from '../packages/log/src/batch.js';
import { snapshot } from './contract/projector-contract.js';

/*
 * test/fixtures/versioned-log is a committed log with lines of old schema versions: every type
 * as version 1 (the format before versions existed: no `v`), and `recovery` at both version 1
 * (`offset`) and version 2 (`v: 2`, `truncated_at`); its memories are version 1 (no `lines`,
 * which memory v2 added). Its projections must be exactly those of
 * the same events written today, at the current versions, by the log's own writer.
 */
const project = 'versioned';
const fixture = join(import.meta.dirname, 'fixtures', 'versioned-log');
const dirs: string[] = [];
let old: string;
let rewritten: string;

function tempRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-upcast-'));
  dirs.push(dir);
  return dir;
}

/** The same events at the current versions: same seq, ts and writer; payload as read (upcast). */
async function rewriteAtCurrentVersions(from: string, to: string): Promise<void> {
  let head: ChainLink = { seq: 0, hash: genesisHash(project) };
  const chunks: Buffer[] = [];
  for await (const { event } of new EventLog({ dir: join(from, 'log') }).read(project)) {
    const batch = chainBatch(
      project,
      head,
      [{ payload: payloadOf(event), writer: event.writer }],
      event.ts,
    );
    chunks.push(batch.bytes);
    head = batch.head;
  }
  mkdirSync(join(to, 'log', project), { recursive: true });
  writeFileSync(join(to, 'log', project, '000001.jsonl'), Buffer.concat(chunks));
}

function payloadOf(event: LogEvent): Payload {
  const {
    seq: _seq,
    ts: _ts,
    project: _project,
    writer: _writer,
    prev: _prev,
    ...rest
  } = event as LogEvent & { v?: number };
  delete (rest as { v?: number }).v;
  return rest;
}

/**
 * What the item store holds for the project, read through its own API: every node (deleted and
 * superseded too), their edges, runs, gate counts, chunk progress and memory heads, and the
 * projected position's seq. The position's head is left out: it is the sha256 of the last
 * line, which differs by construction when the lines do.
 */
function itemStoreReadout(root: string): unknown {
  const store = openItemStore(join(root, '.mem', 'items.sqlite'));
  try {
    const nodes = store.nodes({ project, includeDeleted: true, includeSuperseded: true });
    const queries = [
      null,
      ...new Set(nodes.map((n) => n.query_id).filter((q): q is string => q !== null)),
    ];
    return {
      positions: store.positions().map(({ head: _head, ...rest }) => rest),
      nodes: nodes.map((n) => ({
        ...n,
        parents: store.edges(project, n.sha256, 'parents'),
        children: store.edges(project, n.sha256, 'children'),
      })),
      queries: queries.map((q) => ({
        q,
        runs: store
          .runs(project, q)
          .map((run) => ({ ...run, gates: store.gateCounts(project, run.run_id) })),
        seen: store.seenChunkShas(project, q),
        progress: store.chunkProgress(project, q),
        head: store.memoryHead(project, q)?.sha256 ?? null,
      })),
    };
  } finally {
    store.close();
  }
}

async function rebuild(root: string): Promise<Engine> {
  const engine = new Engine({ root, projectors: [projectorSqlite, projectorVault] });
  await engine.rebuild();
  return engine;
}

beforeAll(async () => {
  old = tempRoot();
  cpSync(fixture, join(old, 'log'), { recursive: true });
  rewritten = tempRoot();
  await rewriteAtCurrentVersions(old, rewritten);
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a committed log of old-version lines', () => {
  it('reads, verifies and rebuilds; its lines keep their bytes and hashes', async () => {
    const engine = await rebuild(old);
    expect((await engine.verify()).ok).toBe(true);
    expect(readFileSync(join(old, 'log', project, '000001.jsonl'))).toEqual(
      readFileSync(join(fixture, project, '000001.jsonl')),
    );
  });

  it('is written today with `v` only where a type is past version 1, and the v1 field renamed', () => {
    const lines = readFileSync(join(rewritten, 'log', project, '000001.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const recoveries = lines.filter((line) => line.includes('"type":"recovery"'));
    expect(recoveries).toHaveLength(2);
    for (const line of recoveries)
      expect(line).toMatch(
        /"type":"recovery","v":2,"writer":\{"kind":"log"\},"segment":"000001\.jsonl","truncated_at":\d+,/,
      );
    // memory v2 carries its addressable lines, one entry per line of text, right after sha256.
    const memories = lines.filter((line) => line.includes('"type":"memory"'));
    expect(memories.length).toBeGreaterThan(0);
    for (const line of memories)
      expect(line).toMatch(/"type":"memory","v":2,.*"sha256":"[0-9a-f]{64}","lines":\[\{"sha256":/);
    expect(lines.filter((line) => line.includes('"v":'))).toEqual(
      lines.filter((line) => recoveries.includes(line) || memories.includes(line)),
    );
    // Every line of a type still at version 1 is byte for byte the fixture's payload: version 1
    // is written as it always was (the chain's prev differs once an earlier line changed).
    const committed = readFileSync(join(fixture, project, '000001.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const firstChanged = lines.findIndex((line) => line.includes('"v":'));
    expect(firstChanged).toBeGreaterThan(0);
    expect(lines.slice(0, firstChanged)).toEqual(committed.slice(0, firstChanged));
  });

  it('projects to the same SQLite rows and vault files as the same events at the current versions', async () => {
    await rebuild(rewritten);
    const a = itemStoreReadout(old) as { nodes: unknown[]; queries: { runs: unknown[] }[] };
    expect(a.nodes.length).toBeGreaterThan(3);
    expect(a.queries.flatMap((q) => q.runs)).toHaveLength(2);
    expect(itemStoreReadout(rewritten)).toEqual(a);
    const target = (root: string) => ({
      stateDir: join(root, '.mem'),
      vaultDir: join(root, 'vault'),
      options: {},
    });
    const vault = await snapshot(projectorVault, target(old));
    expect(Object.keys(vault).length).toBeGreaterThan(1);
    expect(await snapshot(projectorVault, target(rewritten))).toEqual(vault);
  });
});
