import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embedderFromEnv } from '@mem/embed';
import { Engine } from '@mem/engine';
import { openVectorRecall, projectorPgvector } from '@mem/projector-pgvector';
import { projectorSqlite } from '@mem/projector-sqlite';
import { openRegistry } from '@mem/registry';
import { startServer } from '@mem/server';
import { afterEach, describe, expect, it } from 'vitest';
import { call, mint, seedIdentity, tempDataRoot } from './api/support.js';
import { memInProcess } from './support/mem-cli.js';
import { testConfig } from './support/test-config.js';

/*
 * A query names only the held-back items it matched. The vector leg (the default hashed
 * embedder) brings the nearest items whatever the question, so an expired item came back from
 * every recall: judged, held back and named on a question it has nothing to do with. The user
 * walk: `mem query "zebra giraffe"` warned about every held-back item of the project, and over
 * HTTP the abstention was a 200 with those warnings instead of a 204.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const EXPIRED = 'The staging cluster runs Postgres 9.6';
const PAST = '2020-01-01T00:00:00Z';

type Answer = {
  abstained: boolean;
  results: unknown[];
  recall: { vector: string };
  freshness_warnings: { id: string; state: string }[];
};

describe('a query names only the held-back items it matched', () => {
  it('mem query: an unrelated question abstains with no warning; a matching one names the item', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mem-held-matched-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const mem = (args: readonly string[]) => memInProcess(['--root', root, ...args]);
    const written = await mem([
      'remember',
      EXPIRED,
      '--type',
      'fact',
      '--valid-until',
      PAST,
      '--project',
      'shop',
      '--json',
    ]);
    expect(written.code, written.stderr).toBe(0);
    const id = (JSON.parse(written.stdout) as { ids: string[] }).ids[0]!;

    const unrelated = await mem(['query', 'zebra giraffe', '--project', 'shop', '--json']);
    const answer = JSON.parse(unrelated.stdout) as Answer;
    expect(answer.recall.vector).toBe('used');
    expect(answer).toMatchObject({ abstained: true, results: [], freshness_warnings: [] });
    const text = await mem(['query', 'zebra giraffe', '--project', 'shop']);
    expect(text.stderr).not.toContain('held back');
    expect(text.stderr).not.toContain(id);

    const matching = await mem(['query', 'staging postgres', '--project', 'shop', '--json']);
    expect((JSON.parse(matching.stdout) as Answer).freshness_warnings).toEqual([
      expect.objectContaining({ id, state: 'expired' }),
    ]);
  });

  it('GET /memory/query: an unrelated question is 204; a matching one is 200 naming the item', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const config = testConfig();
    const engine = new Engine({
      root,
      projectors: [projectorSqlite, projectorPgvector({ config })],
    });
    await engine.catchUp();
    const embedder = embedderFromEnv(config);
    const vectors = await openVectorRecall({
      stateDir: engine.paths.stateDir,
      config,
      expectEmbedder: embedder.name,
    });
    cleanups.push(() => vectors.close());
    const registry = await openRegistry({
      engine,
      version: '0.0.0-test',
      config,
      runJobs: false,
      queryDeps: { vectors, embedder },
    });
    cleanups.push(() => registry.close());
    await seedIdentity(registry, { alice: ['alpha'] });
    const alice = (await mint(registry, { principal: 'alice' })).secret;
    const server = await startServer(registry, { port: 0, rateLimits: { burstPerSecond: 0 } });
    cleanups.push(() => server.close());
    const written = await call(server.url, 'POST', '/memory/remember', {
      token: alice,
      body: { project: 'alpha', text: EXPIRED, type: 'fact', valid_until: PAST },
    });
    expect(written.status).toBe(201);
    const id = (written.body.ids as string[])[0]!;

    const unrelated = await call(server.url, 'GET', '/memory/query?query=zebra+giraffe', {
      token: alice,
    });
    expect(unrelated.status, JSON.stringify(unrelated.body)).toBe(204);

    const matching = await call(server.url, 'GET', '/memory/query?query=staging+postgres', {
      token: alice,
    });
    expect(matching.status).toBe(200);
    expect((matching.body as Answer).recall.vector).toBe('used');
    expect((matching.body as Answer).freshness_warnings).toEqual([
      expect.objectContaining({ id, state: 'expired' }),
    ]);
  });
});
