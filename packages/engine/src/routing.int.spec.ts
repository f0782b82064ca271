import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventType } from '@mem/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine } from './engine.js';
import type { ProjectionPosition, Projector } from './projector.js';

// Counts the engine's own calls of the shared checks; the real checks still run.
const checks = vi.hoisted(() => ({ batches: 0 }));
vi.mock('./batch-checks.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./batch-checks.js')>();
  return {
    ...original,
    checkBatch: (...args: Parameters<typeof original.checkBatch>) => {
      checks.batches += 1;
      return original.checkBatch(...args);
    },
  };
});

/** A projector that records what it is handed and keeps its position in memory. */
function spyProjector(name: string, handles: readonly EventType[]) {
  const seen: EventType[] = [];
  const positions = new Map<string, ProjectionPosition>();
  const projector: Projector<null> = {
    name,
    version: 1,
    handles,
    init: async () => null,
    position: async (_handle, project) => positions.get(project) ?? null,
    async project(_handle, project, batch) {
      seen.push(...batch.events.map(({ event }) => event.type));
      positions.set(project, batch.through);
    },
    seal: async () => undefined,
    outputs: async () => [],
    close: async () => undefined,
    reset: async () => positions.clear(),
  };
  return { projector, seen, positions };
}

const PAYLOADS = [
  {
    type: 'run',
    run_id: 'r1',
    level: 'L1',
    query_id: 'q',
    input_level: 'chunk',
    model: 'heuristic',
    chunk_tokens: 5000,
    memory_budget: 1024,
    exit_gate: false,
  },
  {
    type: 'chunk',
    run_id: 'r1',
    level: 'L0',
    t: 1,
    source: 'claude:s',
    span: [0, 1],
    sha256: 'a'.repeat(64),
  },
  {
    type: 'gate',
    run_id: 'r1',
    level: 'L1',
    t: 1,
    update: false,
    exit: false,
    think: 'noise',
    latency_ms: 0,
  },
  {
    type: 'run_end',
    run_id: 'r1',
    level: 'L1',
    chunks_seen: 1,
    chunks_used: 0,
    final_memory_sha: null,
  },
];

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the engine routes events by handles', () => {
  it('hands a projector only the event types it handles, yet advances it to the head', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mem-routing-'));
    roots.push(root);
    const runs = spyProjector('runs', ['run', 'run_end']);
    const gates = spyProjector('gates', ['gate']);
    const engine = new Engine({ root, projectors: [runs.projector, gates.projector] });
    const appended = await engine.append('demo', PAYLOADS, { kind: 'test' });

    expect(runs.seen).toEqual(['run', 'run_end']);
    expect(gates.seen).toEqual(['gate']);
    const head = await engine.head('demo');
    expect(head.seq).toBe(appended.last_seq);
    expect(runs.positions.get('demo')).toEqual({ seq: head.seq, head: head.hash });
    expect(gates.positions.get('demo')).toEqual({ seq: head.seq, head: head.hash });
  });

  it('runs the batch checks once per batch, not once per projector', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mem-routing-'));
    roots.push(root);
    const spies = ['a', 'b', 'c'].map((name) => spyProjector(name, ['run']));
    const engine = new Engine({ root, projectors: spies.map((s) => s.projector) });
    checks.batches = 0;
    await engine.append('demo', PAYLOADS, { kind: 'test' });
    expect(checks.batches).toBe(1);
  });
});
