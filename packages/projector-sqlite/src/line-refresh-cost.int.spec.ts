import { rmSync } from 'node:fs';
import { contentSha256, uniformLines, type Payload } from '@mem/core';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sealedStore, threadBytesRead } from '../../../test/support/sealed-store.js';
import { STATEMENT_SQL } from './statements.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * `chains` queries, each a chain of `versions` memories of four lines (one line changes per
 * version, so every version holds lines of the one before): the line_edge rows grow with the
 * store, the lines of one memory do not.
 */
function payloads(chains: number, versions: number): Payload[] {
  const out: Payload[] = [];
  for (let c = 0; c < chains; c += 1) {
    const runId = `run-${c}`;
    out.push({
      type: 'run',
      run_id: runId,
      level: 'L1',
      query_id: `query-${c}`,
      input_level: 'chunk',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: false,
    });
    const evidence = `evidence ${c} of the refresh cost store`;
    const sha = contentSha256(evidence);
    out.push({
      type: 'evidence',
      run_id: runId,
      level: 'L0',
      t: 1,
      source: 'claude:s',
      text: evidence,
      sha256: sha,
    });
    for (let v = 0; v < versions; v += 1) {
      const text = [0, 1, 2, 3]
        .map((l) => `- chain ${c} line ${l} says ${l === v % 4 ? v : 0}`)
        .join('\n');
      out.push({
        type: 'memory',
        run_id: runId,
        level: 'L1',
        t: v + 1,
        text,
        tokens: 24,
        parents: [sha],
        sha256: contentSha256(text),
        lines: uniformLines(text, [sha]),
      });
    }
  }
  return out;
}

/** A sealed store of `chains` memory chains, and the sha of its newest memory. */
async function store(chains: number): Promise<{ path: string; newest: string; edges: number }> {
  const { path, events } = await sealedStore(dirs, 'mem-line-refresh-', payloads(chains, 6));
  const newest = events.findLast(({ event }) => event.type === 'memory')!.event as {
    sha256: string;
  };
  const db = new Database(path, { readonly: true });
  const { edges } = db.prepare(`SELECT count(*) AS edges FROM line_edge`).get() as {
    edges: number;
  };
  db.close();
  return { path, newest: newest.sha256, edges };
}

/**
 * What refreshLines reads, on a fresh connection (an empty page cache), in a transaction it
 * rolls back; and the lines it changed, so the two sizes can be compared on the same work.
 */
function refreshCost(path: string, sha256: string): { bytes: number; changes: number } {
  const db = new Database(path);
  try {
    const statement = db.prepare(STATEMENT_SQL.refreshLines);
    db.exec('BEGIN');
    const before = threadBytesRead();
    const { changes } = statement.run({ project: 'demo', sha256 });
    const bytes = threadBytesRead() - before;
    db.exec('ROLLBACK');
    return { bytes, changes };
  } finally {
    db.close();
  }
}

describe('refreshLines reads the lines it refreshes, not the project', () => {
  it('reads about as much in a store 8 times larger, for a new head and for a tombstone', async () => {
    const small = await store(100);
    const large = await store(800);
    expect(large.edges).toBeGreaterThan(7 * small.edges);
    for (const sha of [(s: typeof small) => s.newest, () => 'a'.repeat(64)]) {
      const a = refreshCost(small.path, sha(small));
      const b = refreshCost(large.path, sha(large));
      expect(b.changes).toBe(a.changes);
      // Deeper b-trees cost a few pages more, never a pass over line_edge: the OR this
      // replaced read every line_edge row of the project, 8 times more here.
      expect(b.bytes).toBeLessThan(1.5 * a.bytes);
    }
  });
});
