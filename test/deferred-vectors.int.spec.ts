import { embedderFromEnv } from '@mem/embed';
import { Engine, type Projector } from '@mem/engine';
import { openVectorRecall, projectorPgvector } from '@mem/projector-pgvector';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { openRegistry, type Registry } from '@mem/registry';
import { startServer } from '@mem/server';
import { afterEach, describe, expect, it } from 'vitest';
import { call, memoryPayloads, mint, seedIdentity, tempDataRoot } from './api/support.js';
import { testConfig } from './support/test-config.js';

/*
 * Issue 13 §6, the lead's decision of stop 30: pgvector leaves a write's path. A write answers
 * once SQLite (and the vault) hold it; pgvector is caught up by the next vector read (query,
 * context) before it answers, or — in `mem serve` — by a background catch-up after the answer.
 * A read must never answer from a pgvector behind the log it read: a write, then a query by
 * vector, finds the new item through the vector leg.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const FACT = 'The zebracorn theme loader caches every palette in a ring buffer';
const LINE = 'The quokka importer retries a failed upload three times';

/** Every projector `mem serve` opens; pgvector wrapped to count the item events it applies. */
function projectors(config: ReturnType<typeof testConfig>): {
  list: Projector[];
  embedded: string[];
} {
  const pg = projectorPgvector({ config }) as Projector;
  const embedded: string[] = [];
  const counted: Projector = {
    ...pg,
    async project(handle, project, batch) {
      for (const { event } of batch.events) embedded.push(`${project}:${event.type}`);
      return pg.project(handle, project, batch);
    },
  };
  return { list: [projectorSqlite, projectorVault, counted], embedded };
}

async function open(
  options: { background?: boolean } = {},
): Promise<{ registry: Registry; engine: Engine; embedded: string[]; root: string }> {
  const { root, cleanup } = tempDataRoot(['alpha']);
  cleanups.push(cleanup);
  const config = testConfig();
  const { list, embedded } = projectors(config);
  const engine = new Engine({ root, projectors: list });
  // As `mem serve` opens its query side: the projections built, then pgvector's recall.
  await engine.catchUp();
  const embedder = embedderFromEnv(config);
  const vectors = await openVectorRecall({
    stateDir: engine.paths.stateDir,
    config,
    expectEmbedder: embedder.name,
  });
  cleanups.push(() => vectors.close());
  const errors: unknown[] = [];
  const registry = await openRegistry({
    engine,
    version: '0.0.0-test',
    config,
    runJobs: false,
    queryDeps: { vectors, embedder },
    ...(options.background ? { catchUpAfterWrites: { onError: (e) => errors.push(e) } } : {}),
  });
  cleanups.push(async () => {
    await registry.close();
    expect(errors).toEqual([]);
  });
  await seedIdentity(registry, { alice: ['alpha'] });
  return { registry, engine, embedded, root };
}

type Answer = {
  recall: { vector: string };
  results: { text: string; kind: string; ranking: { vector_text: unknown } }[];
};

const byVector = (answer: Answer, text: string) =>
  answer.results.find((r) => r.text === text && r.ranking.vector_text !== null);

describe('pgvector off the write path', () => {
  it('add_items answers before pgvector embeds the item; the next query catches it up and finds it by vector', async () => {
    const { registry, embedded } = await open();
    const alice = registry.local('alice');
    await registry.invoke('add_items', alice, {
      project: 'alpha',
      items: [{ type: 'fact', summary: FACT }],
    });
    expect(embedded.filter((e) => e === 'alpha:item_added')).toEqual([]);
    // A read of SQLite alone leaves pgvector where it is.
    await registry.invoke('find_items', alice, { project: 'alpha', query: 'zebracorn' });
    expect(embedded.filter((e) => e === 'alpha:item_added')).toEqual([]);
    const answer = (await registry.invoke('query', alice, {
      query: 'zebracorn theme loader palette',
      project: ['alpha'],
    })) as Answer;
    expect(answer.recall.vector).toBe('used');
    expect(byVector(answer, FACT), JSON.stringify(answer.results)).toBeDefined();
    expect(embedded.filter((e) => e === 'alpha:item_added')).toEqual(['alpha:item_added']);
  }, 120_000);

  it('a memory appended on the write path alone, then context: its vector tier is caught up first', async () => {
    const { registry, engine, embedded } = await open();
    await engine.append(
      'alpha',
      memoryPayloads('run-1', 'the quokka importer retried', `- ${LINE}`, 'q1').payloads,
      { kind: 'cli' },
      { catchUp: 'write-path' },
    );
    expect(embedded.filter((e) => e === 'alpha:memory')).toEqual([]);
    await registry.invoke('context', registry.local('alice'), {
      project: 'alpha',
      task: 'quokka importer upload retries',
    });
    expect(embedded.filter((e) => e === 'alpha:memory').length).toBeGreaterThan(0);
  }, 120_000);

  it('mem serve: a query right after a write waits for the background catch-up instead of running its own; a later write is embedded with no read at all', async () => {
    const { registry, embedded } = await open({ background: true });
    const token = (await mint(registry, { principal: 'alice' })).secret;
    const server = await startServer(registry, {
      port: 0,
      rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 },
    });
    cleanups.push(() => server.close());
    const add = async (summary: string) => {
      const added = await call(server.url, 'POST', '/memory/items', {
        token,
        body: { project: 'alpha', items: [{ type: 'fact', summary }] },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    };
    const items = () => embedded.filter((e) => e === 'alpha:item_added');
    await add(FACT);
    const query = await call(
      server.url,
      'GET',
      `/memory/query?query=${encodeURIComponent('zebracorn theme loader palette')}&project=alpha`,
      { token },
    );
    expect(query.status, JSON.stringify(query.body)).toBe(200);
    expect(byVector(query.body as Answer, FACT)).toBeDefined();
    expect(items()).toHaveLength(1);
    await add('The quokka importer retries a failed upload three times');
    await registry.context.stores.idle();
    expect(items()).toHaveLength(2);
  }, 120_000);
});
