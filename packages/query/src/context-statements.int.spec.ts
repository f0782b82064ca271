import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logSignatures } from '@mem/core';
import type { ItemStore } from '@mem/projector-sqlite';
import { evidence, linedMemory, run, testStore, type TestStore } from '../test/store.js';
import { assembleContext } from './tool-context.js';

/*
 * Issue 14 §4, a bound without timing: the store statements a context request runs do not grow
 * with the number of candidate rows. Citations are read for a page at once, not per row and
 * parent, the page's line notes at once, the vector leg's hits at once. A counter around the
 * store counts calls.
 */

/** One memory of `count` kubectl lessons, each line resting on two chunks of its own. */
function lessons(count: number) {
  const lines = Array.from({ length: count }, (_, i) => {
    const a = `kubectl rollout ${i} failed: the deployment image tag ${i} was missing.`;
    const b = `kubectl rollout ${i} worked after pushing image tag ${i} to the registry.`;
    return [`kubectl rollout ${i} needs image tag ${i} pushed before it runs.`, [a, b]] as const;
  });
  // Each line was drawn from a failure of its own: each is a tier-1 sighting of its signature.
  const memory = linedMemory('r', 'L1', 2 * count, lines);
  const signed = (memory['lines'] as Record<string, unknown>[]).map((l, i) => ({
    ...l,
    signatures: logSignatures(failure(i)).map((s) => ({
      sig_sha: s.sigSha,
      signature: s.signature,
      tool: 'bash',
    })),
  }));
  return [
    run('r', 'L1', 'tool-failures'),
    ...lines.flatMap(([, [a, b]], i) => [evidence('r', 2 * i + 1, a), evidence('r', 2 * i + 2, b)]),
    { ...memory, lines: signed },
  ];
}

/** Line i's failure: signatures keep letters, so the module is named in letters. */
const failure = (i: number) =>
  `Error: cannot find module ${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}widget`;
/** A log of the first `count` failures. */
const failures = (count: number) => Array.from({ length: count }, (_, i) => failure(i)).join('\n');

/** The store with every method call counted by name. */
function counted(items: ItemStore): { items: ItemStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const wrapped = new Proxy(items, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { items: wrapped, calls };
}

const rows = [3, 24];
const stores: TestStore[] = [];
beforeAll(async () => {
  for (const n of rows) stores.push(await testStore({ demo: lessons(n) }));
}, 120_000);
afterAll(() => stores.forEach((s) => s.cleanup()));

async function contextCalls(store: TestStore, vectors: boolean, signatureSource?: string) {
  // With vectors, a task no line shares a word with: every row is a vector hit alone.
  const task = vectors ? 'deploying containers' : 'kubectl rollout image tag';
  const { items, calls } = counted(store.items);
  const lines = items.nodes({ project: 'demo', kind: 'line' });
  calls.clear();
  const bundle = await assembleContext(
    {
      task,
      ...(signatureSource !== undefined ? { signatureSource } : {}),
      budget: 100_000,
      project: 'demo',
      reachable: ['demo'],
      citations: 'full',
    },
    {
      items,
      ...(vectors
        ? {
            // Every line is a vector hit the keyword leg did not bring: each must be looked up.
            embedder: { name: 'test', dims: 2, embed: async () => [[1, 0]] },
            vectors: {
              recallEach: async (_vector: number[], asks: readonly unknown[]) =>
                asks.map(() =>
                  lines.map((line, i) => ({
                    project: line.project,
                    level: line.level,
                    sha256: line.sha256,
                    distance: i / 100,
                  })),
                ),
            },
          }
        : {}),
      tokenizer: { count: (text: string) => text.split(/\s+/).length },
    } as Parameters<typeof assembleContext>[1],
  );
  return { bundle, calls: Object.fromEntries([...calls].sort()) };
}

describe('statements per context request', () => {
  it('cites every row with both its chunks, in the same number of store calls for 3 candidate rows as for 24', async () => {
    const [small, large] = [
      await contextCalls(stores[0]!, false),
      await contextCalls(stores[1]!, false),
    ];
    expect(small.bundle.results).toHaveLength(3);
    expect(large.bundle.results).toHaveLength(10); // a page: the default limit
    for (const r of large.bundle.results) expect(r.tier !== 1 && r.parents).toHaveLength(2);
    expect(large.calls).toEqual(small.calls);
  });

  it('looks up vector hits the keyword leg did not bring in the same number of store calls', async () => {
    const [small, large] = [
      await contextCalls(stores[0]!, true),
      await contextCalls(stores[1]!, true),
    ];
    expect(large.bundle.results).toHaveLength(10); // a page: the default limit
    expect(large.calls).toEqual(small.calls);
  });

  it('finds every tier-1 sighting with its chunks in the same number of store calls', async () => {
    const [small, large] = [
      await contextCalls(stores[0]!, false, failures(rows[1]!)),
      await contextCalls(stores[1]!, false, failures(rows[1]!)),
    ];
    const tier1 = (r: typeof small) => r.bundle.results.filter((e) => e.tier === 1);
    expect(tier1(small).length).toBe(3);
    expect(tier1(large).length).toBeGreaterThan(3); // a log yields a bounded number of signatures
    for (const e of tier1(large)) expect(e.tier === 1 && e.citations).toHaveLength(2);
    expect(large.calls).toEqual(small.calls);
  });
});
