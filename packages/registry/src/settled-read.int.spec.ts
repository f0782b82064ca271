import { afterEach, describe, expect, it } from 'vitest';
import { uniformLines } from '@mem/core';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import type { Embedder, VectorRecall } from '@mem/query';
import { memoryPayloads, seedIdentity, tempDataRoot } from '../../../test/api/support.js';
import { testConfig } from '../../../test/support/test-config.js';
import { openRegistry } from './open.js';

/*
 * Issue 15: a query reads the item store, then awaits its vector leg, then looks the vector
 * hits up in the item store. Another process's catch-up that commits in between must not give
 * an answer of two states: the keyword leg's line that batch forgot beside the vector leg's
 * line that batch added. Two registries on one root; the vector leg is a stub whose recall is
 * where the other process writes (a forget and a new memory) and catches up.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const FORGOTTEN = 'The zebracorn cache leaked the staging password';
const ADDED = 'The zebracorn cache was replaced by a ring buffer';

describe('a query straddling another process’s catch-up', () => {
  it('answers from one state: never the forgotten line of a batch beside the line it added', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const writerEngine = new Engine({ root, projectors: [projectorSqlite] });
    const writer = await openRegistry({
      engine: writerEngine,
      version: '0.0.0-test',
      config: testConfig(),
      runJobs: false,
    });
    cleanups.push(() => writer.close());
    await seedIdentity(writer, { alice: ['alpha'] });
    const cli = { kind: 'cli' } as const;
    await writerEngine.append(
      'alpha',
      memoryPayloads('run-1', 'the zebracorn cache leaked', `- ${FORGOTTEN}`, 'q1').payloads,
      cli,
    );
    const added = memoryPayloads('run-2', 'the zebracorn cache was replaced', `- ${ADDED}`, 'q2');
    const addedLine = uniformLines(`- ${ADDED}`, [])[0]!.sha256;

    let inTheRead: (() => Promise<void>) | null = async () => {
      await writer.invoke('forget', writer.local('alice'), {
        project: 'alpha',
        ref: FORGOTTEN,
        reason: 'a secret',
      });
      await writerEngine.append('alpha', added.payloads, cli);
    };
    const vectors: VectorRecall = {
      recall: () => Promise.resolve([]),
      async recallEach(_vector, requests) {
        const write = inTheRead;
        inTheRead = null;
        if (write) await write();
        return requests.map((r) =>
          r.kind === 'text'
            ? [{ project: 'alpha', level: 'L1' as const, sha256: addedLine, distance: 0.05 }]
            : [],
        );
      },
      close: () => Promise.resolve(),
    };
    const embedder: Embedder = {
      name: 'stub',
      dims: 3,
      embed: (texts) => Promise.resolve(texts.map(() => new Float32Array([1, 0, 0]))),
    };
    const reader = await openRegistry({
      engine: new Engine({ root, projectors: [projectorSqlite] }),
      version: '0.0.0-test',
      config: testConfig(),
      runJobs: false,
      queryDeps: { vectors, embedder },
    });
    cleanups.push(() => reader.close());

    const answer = (await reader.invoke('query', reader.local('alice'), {
      query: 'zebracorn cache',
      project: ['alpha'],
      include_stale: true,
    })) as { results: { text: string }[] };
    expect(inTheRead, 'the other process wrote during the read').toBeNull();
    const texts = answer.results.map((r) => r.text);
    expect(texts).not.toContain(FORGOTTEN);
    expect(texts).toContain(ADDED);
  }, 120_000);
});
