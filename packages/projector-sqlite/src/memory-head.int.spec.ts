import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { contentSha256, type Payload, uniformLines } from '@mem/core';
import { sealedStore } from '../../../test/support/sealed-store.js';
import { openItemStore } from './item-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(runId: string, query: string): Payload {
  return {
    type: 'run',
    run_id: runId,
    level: 'L1',
    query_id: query,
    input_level: 'chunk',
    model: 'heuristic',
    chunk_tokens: 5000,
    memory_budget: 1024,
    exit_gate: false,
  };
}

function step(runId: string, t: number, evidence: string, memory: string): Payload[] {
  const sha = contentSha256(evidence);
  return [
    {
      type: 'chunk',
      run_id: runId,
      level: 'L0',
      t,
      source: 'claude:s',
      span: [t - 1, t],
      sha256: sha,
    },
    {
      type: 'gate',
      run_id: runId,
      level: 'L1',
      t,
      update: true,
      exit: false,
      think: 'x',
      latency_ms: 0,
    },
    {
      type: 'evidence',
      run_id: runId,
      level: 'L0',
      t,
      source: 'claude:s',
      text: evidence,
      sha256: sha,
    },
    {
      type: 'memory',
      run_id: runId,
      level: 'L1',
      t,
      text: memory,
      tokens: 3,
      parents: [sha],
      sha256: contentSha256(memory),
      lines: uniformLines(memory, [sha]),
    },
  ];
}

describe('memory heads', () => {
  it('keeps a head per query when two queries write the same memory text', async () => {
    const { path } = await sealedStore(dirs, 'mem-heads-', [
      run('ra', 'a'),
      ...step('ra', 1, 'kong broke because of buffering', '- kong broke'),
      run('rb', 'b'),
      ...step('rb', 1, 'pg raced its mount', '- pg raced'),
      ...step('rb', 2, 'kong broke because of buffering, again', '- kong broke'),
    ]);
    const store = openItemStore(path);
    try {
      expect(store.memoryHead('demo', 'a')?.text).toBe('- kong broke');
      expect(store.memoryHead('demo', 'b')?.text).toBe('- kong broke');
      // b's earlier memory is superseded; the shared text is current for both.
      const current = store.nodes({ project: 'demo', levels: ['L1'] }).map((n) => n.text);
      expect(current).toEqual(['- kong broke']);
      expect(store.chunkProgress('demo', 'b')).toEqual({ 'claude:s': 2 });
    } finally {
      store.close();
    }
  });
});
