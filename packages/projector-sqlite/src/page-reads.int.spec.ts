import { rmSync } from 'node:fs';
import { contentSha256, uniformLines, type Payload } from '@mem/core';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sealedStore, threadBytesRead } from '../../../test/support/sealed-store.js';
import { pageReader, type NodeKey } from './page-reads.js';
import type { NodeRow } from './rows.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * One memory of four lines citing one evidence chunk, beside `others` evidence chunks of ~4 kB
 * that nothing cites: the project's L0 nodes grow, what the memory's lines cite does not.
 */
function payloads(others: number): Payload[] {
  const run: Payload = {
    type: 'run',
    run_id: 'run-0',
    level: 'L1',
    query_id: 'query-0',
    input_level: 'chunk',
    model: 'heuristic',
    chunk_tokens: 5000,
    memory_budget: 1024,
    exit_gate: false,
  };
  const evidence = (i: number): Payload => {
    const text = `evidence ${i} of the page reads store ${'x'.repeat(4000)}`;
    return {
      type: 'evidence',
      run_id: 'run-0',
      level: 'L0',
      t: i + 1,
      source: 'claude:s',
      text,
      sha256: contentSha256(text),
    };
  };
  const cited = evidence(0) as Payload & { sha256: string };
  const text = [0, 1, 2, 3].map((l) => `- line ${l} of the memory`).join('\n');
  return [
    run,
    cited,
    ...Array.from({ length: others }, (_, i) => evidence(i + 1)),
    {
      type: 'memory',
      run_id: 'run-0',
      level: 'L1',
      t: others + 2,
      text,
      tokens: 24,
      parents: [cited.sha256],
      sha256: contentSha256(text),
      lines: uniformLines(text, [cited.sha256]),
    },
  ];
}

async function store(others: number): Promise<string> {
  return (await sealedStore(dirs, 'mem-page-reads-', payloads(others))).path;
}

/** The memory's lines' cited chunks, and the bytes read for them on a fresh connection. */
function lineChunks(path: string): { cited: number; bytes: number } {
  const db = new Database(path, { readonly: true });
  try {
    const lines = (
      db.prepare(`SELECT project, level, sha256 FROM node WHERE kind = 'line'`).all() as NodeKey[]
    ).slice(0, 4);
    expect(lines).toHaveLength(4);
    const reader = pageReader(db, 'n.id', (raw) => raw as NodeRow);
    const before = threadBytesRead();
    const chunks = reader.lineChunks(lines, 200);
    const bytes = threadBytesRead() - before;
    expect(chunks.map((c) => c.map((n) => n.text.slice(0, 10)))).toEqual(
      lines.map(() => ['evidence 0']),
    );
    return { cited: chunks.flat().length, bytes };
  } finally {
    db.close();
  }
}

describe('lineChunks reads what the lines cite, not the project', () => {
  it('reads about as much beside 8 times more uncited chunks', async () => {
    const small = lineChunks(await store(40));
    const large = lineChunks(await store(320));
    expect(large.cited).toBe(small.cited);
    // A deeper b-tree costs a few pages more; walking the project's L0 nodes per line (the
    // plan before) read every chunk's pages, 8 times more here.
    expect(large.bytes).toBeLessThan(1.5 * small.bytes);
  });
});
