import { existsSync, readdirSync } from 'node:fs';
import { projectStretch } from '@mem/engine';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileName, hashEmbedder } from '@mem/embed';
import { itemId, type Payload } from '@mem/core';
import { pgliteHeld } from '../../../test/support/pglite-lock.js';
import { usePglite, usePgliteWire } from '../test/pglite-servers.js';
import { applyLogs, chainEvents, payload, projected, sha, tempTargets } from '../test/support.js';
import { projectorPgvector } from './projector.js';
import { quoteIdent, sharedSchemaFor } from './schema/identifiers.js';
import { openVectorRecall } from './vector-recall.js';

/** A log that touches every table: two projects, chains, an L2, references, symptoms, a tombstone, items. */
const LOGS: Record<string, Payload[]> = {
  alpha: [
    payload.run('a1', 'infra-root-causes'),
    payload.evidence('a1', 1, 'kong answered 413 for a 12KB body'),
    payload.memory(
      'a1',
      1,
      'Requests over 10KB failed: Kong buffered the body.',
      ['kong answered 413 for a 12KB body'],
      {
        symptom: '413 Request Entity Too Large',
        failures: [
          '413 Request Entity Too Large',
          '2026-08-19T09:12:33Z worker-3 upload failed after 1532ms',
        ],
      },
    ),
    payload.evidence('a1', 2, 'proxy-body-size 0 fixed it'),
    payload.memory(
      'a1',
      2,
      'Requests over 10KB failed: Kong buffered the body. Fixed with proxy-body-size: 0.',
      ['kong answered 413 for a 12KB body', 'proxy-body-size 0 fixed it'],
      {
        symptom: '413 Request Entity Too Large',
        failures: [
          '413 Request Entity Too Large',
          '2026-08-21T10:00:00Z worker-9 upload failed after 20ms',
        ],
      },
    ),
    payload.run('s1', null),
    payload.memory(
      's1',
      1,
      'Project state: ingress limits explained.',
      ['Requests over 10KB failed: Kong buffered the body. Fixed with proxy-body-size: 0.'],
      { level: 'L2' },
    ),
    payload.reference('kubectl get pods --all-namespaces lists pods in every namespace'),
    payload.tombstone('proxy-body-size 0 fixed it'),
    {
      type: 'item_added',
      item_type: 'rule',
      summary: 'Raise proxy-body-size before large uploads',
    },
    {
      type: 'item_updated',
      item: itemId('alpha', 10),
      detail: 'Kong buffers bodies over 10KB otherwise.',
      reason: 'why',
    },
  ],
  beta: [
    payload.run('b1', 'infra-root-causes'),
    payload.evidence('b1', 1, 'npm install failed with ERESOLVE'),
    payload.memory(
      'b1',
      1,
      'npm ERESOLVE: pin react 18 or pass --legacy-peer-deps.',
      ['npm install failed with ERESOLVE'],
      {
        symptom: 'npm ERR! ERESOLVE unable to resolve dependency tree',
        failures: ['npm ERR! ERESOLVE unable to resolve dependency tree'],
      },
    ),
  ],
};

const embedder = hashEmbedder(64);

describe('one projection on every backend', () => {
  const shared = usePglite();
  const wire = usePgliteWire();
  const temp = tempTargets();
  afterAll(() => temp.cleanup());

  it('has the same digest in PGlite on disk, a shared PGlite and Postgres over the wire, and keeps it across a reopen', async () => {
    const digests: Record<string, string>[] = [];
    const backends = [
      projectorPgvector({ databaseUrl: null, embedder }),
      projectorPgvector({ pglite: shared.db, embedder }),
      projectorPgvector({ config: { DATABASE_URL: wire.url }, embedder }),
    ];
    const embedded = temp.target();
    const targets = [embedded, temp.target(), temp.target()];
    for (const [i, projector] of backends.entries()) {
      const target = targets[i]!;
      await applyLogs(projector, target, LOGS);
      const handle = await projector.init(target);
      try {
        digests.push(await projector.digest!(handle));
        expect(await projector.position(handle, 'beta')).toMatchObject({
          seq: LOGS['beta']!.length,
        });
      } finally {
        await projector.close(handle);
      }
    }
    expect(digests[1]).toEqual(digests[0]);
    expect(digests[2]).toEqual(digests[0]);
    expect(Object.keys(digests[0]!).sort()).toEqual([
      'failure_signature',
      'memory_edge',
      'memory_head',
      'memory_item',
      'memory_line',
      'memory_line_edge',
      'memory_line_successor',
      'memory_node',
      'memory_run',
      'memory_supersede',
      'memory_tombstone',
      'memory_vector',
      'projection_state',
    ]);
    // The read side answers the same on each.
    const [query] = await embedder.embed(['413 Request Entity Too Large'], 'query');
    const answers = [];
    for (const options of [
      { databaseUrl: null },
      { pglite: shared.db },
      { databaseUrl: wire.url },
    ]) {
      const recall = await openVectorRecall({
        ...options,
        stateDir: targets[answers.length]!.stateDir,
        expectEmbedder: embedder.name,
      });
      try {
        answers.push(
          await recall.recall(
            'symptom',
            query!,
            { projects: ['alpha', 'beta'], levels: ['L1', 'L2'] },
            5,
          ),
        );
      } finally {
        await recall.close();
      }
    }
    expect(answers[0]!.map((h) => h.sha256)).toEqual([
      sha('Requests over 10KB failed: Kong buffered the body. Fixed with proxy-body-size: 0.'),
      sha('npm ERESOLVE: pin react 18 or pass --legacy-peer-deps.'),
    ]);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // The embedded projection lives under <stateDir>/pg, locked only while open; reset drops one project's rows, or the directory.
    expect(existsSync(join(embedded.stateDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(pgliteHeld(join(embedded.stateDir, 'pg'))).toBe(false);
    const [onDisk] = backends;
    await onDisk!.reset(embedded, 'alpha');
    const handle = await onDisk!.init(embedded);
    try {
      expect(await onDisk!.position(handle, 'alpha')).toBeNull();
      expect(await onDisk!.position(handle, 'beta')).not.toBeNull();
      await expect(onDisk!.reset(embedded)).rejects.toMatchObject({ code: 'CONFLICT' }); // still open here
    } finally {
      await onDisk!.close(handle);
    }
    await onDisk!.reset(embedded);
    expect(existsSync(join(embedded.stateDir, 'pg'))).toBe(false);
  });

  it('folds the failure signatures memory lines carry over the log (the raw line is the memory line seen with it) and records why a memory was superseded', async () => {
    const target = temp.target();
    await applyLogs(projectorPgvector({ pglite: shared.db, embedder }), target, LOGS);
    const s = quoteIdent(sharedSchemaFor(target.stateDir));
    const sigs = await shared.db.query(
      `SELECT project, signature, tool, raw, seen_count, first_seen, last_seen FROM ${s}.failure_signature ORDER BY project, signature`,
    );
    expect(sigs.rows).toEqual([
      {
        project: 'alpha',
        signature: '413 Request Entity Too Large',
        tool: 'unknown',
        raw: 'Requests over 10KB failed: Kong buffered the body. Fixed with proxy-body-size: 0.',
        seen_count: 2,
        first_seen: '2026-08-17T09:00:02.000Z',
        last_seen: '2026-08-17T09:00:04.000Z',
      },
      {
        project: 'alpha',
        signature: '<ts> worker-<id> upload failed after <dur>',
        tool: 'unknown',
        raw: 'Requests over 10KB failed: Kong buffered the body. Fixed with proxy-body-size: 0.',
        seen_count: 2,
        first_seen: '2026-08-17T09:00:02.000Z',
        last_seen: '2026-08-17T09:00:04.000Z',
      },
      {
        project: 'beta',
        signature: 'npm ERR! ERESOLVE unable to resolve dependency tree',
        tool: 'npm',
        raw: 'npm ERESOLVE: pin react 18 or pass --legacy-peer-deps.',
        seen_count: 1,
        first_seen: '2026-08-17T09:00:02.000Z',
        last_seen: '2026-08-17T09:00:02.000Z',
      },
    ]);
    const supersede = await shared.db.query(`SELECT level, reason, seq FROM ${s}.memory_supersede`);
    expect(supersede.rows).toEqual([
      { level: 'L1', reason: 'replaced by a newer L1 memory of query infra-root-causes', seq: 5 },
    ]);
    const deleted = await shared.db.query(
      `SELECT level, deleted_at FROM ${s}.memory_node WHERE deleted_at IS NOT NULL`,
    );
    expect(deleted.rows).toEqual([{ level: 'L0', deleted_at: '2026-08-17T09:00:08.000Z' }]);
  });

  it('keeps a head per query when two queries write the same memory text: the shared node stays live until both move on', async () => {
    const target = temp.target();
    const log = (more: Payload[]): Record<string, Payload[]> => ({
      gamma: [
        payload.run('ga', 'a'),
        payload.evidence('ga', 1, 'kong broke because of buffering'),
        payload.memory('ga', 1, '- kong broke', ['kong broke because of buffering']),
        payload.run('gb', 'b'),
        payload.evidence('gb', 1, 'pg raced its mount'),
        payload.memory('gb', 1, '- pg raced', ['pg raced its mount']),
        payload.evidence('gb', 2, 'kong broke because of buffering, again'),
        payload.memory('gb', 2, '- kong broke', ['kong broke because of buffering, again']),
        ...more,
      ],
    });
    const liveL1 = async (stateDir: string): Promise<string[]> => {
      const s = quoteIdent(sharedSchemaFor(stateDir));
      // L1 vectors are lines' (issue 11 §3): a line is live while a live head holds it.
      const rows = await shared.db.query<{ text: string }>(`SELECT n.text FROM ${s}.memory_vector v
        JOIN ${s}.memory_line n ON n.project = v.project AND n.level = v.level AND n.sha256 = v.node_sha
        WHERE v.live AND v.level = 'L1' ORDER BY n.text`);
      return rows.rows.map((r) => r.text);
    };
    const projector = projectorPgvector({ pglite: shared.db, embedder });
    await applyLogs(projector, target, log([]));
    // b's first memory is superseded; the shared text is current for a and b alike.
    expect(await liveL1(target.stateDir)).toEqual(['kong broke']);
    const heads = await shared.db.query(
      `SELECT query_key, sha256 FROM ${quoteIdent(sharedSchemaFor(target.stateDir))}.memory_head ORDER BY query_key`,
    );
    expect(heads.rows).toEqual([
      { query_key: 'a', sha256: sha('- kong broke') },
      { query_key: 'b', sha256: sha('- kong broke') },
    ]);

    // a moves on: b still holds the shared text, so it stays live.
    const more = [
      payload.evidence('ga', 2, 'kong fixed with proxy-body-size 0'),
      payload.memory('ga', 2, '- kong fixed', ['kong fixed with proxy-body-size 0']),
    ];
    const next = temp.target();
    await applyLogs(projector, next, log(more));
    expect(await liveL1(next.stateDir)).toEqual(['kong broke', 'kong fixed']);
  });

  it('writes the same rows whether a log with symptoms comes in one batch or in batches of one to three events (the contract logs carry no symptoms)', async () => {
    const projector = projectorPgvector({ pglite: shared.db, embedder });
    const once = temp.target();
    await applyLogs(projector, once, LOGS);
    const split = temp.target();
    const handle = await projector.init(split);
    try {
      for (const project of Object.keys(LOGS).sort()) {
        const events = projected(chainEvents(project, LOGS[project]!));
        for (let i = 0; i < events.length; i += 1 + (i % 3))
          await projectStretch(projector, handle, project, events.slice(i, i + 1 + (i % 3)));
      }
      await projector.seal(handle);
      const digest = await projector.digest!(handle);
      const reference = await projector.init(once);
      try {
        expect(digest).toEqual(await projector.digest!(reference));
      } finally {
        await projector.close(reference);
      }
    } finally {
      await projector.close(handle);
    }
  });

  it('starts over when the embedder changes: a different embedder is a rebuild, never a migration', async () => {
    const target = temp.target();
    await applyLogs(projectorPgvector({ pglite: shared.db, embedder }), target, LOGS);
    const other = projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(32) });
    const handle = await other.init(target);
    try {
      expect(await other.position(handle, 'alpha')).toBeNull();
    } finally {
      await other.close(handle);
    }
  });

  it('embeds with the embedder of the environment by default, through a cache under <stateDir>/cache/embeddings', async () => {
    const target = temp.target();
    await applyLogs(projectorPgvector({ pglite: shared.db, config: {} }), target, {
      beta: LOGS['beta']!,
    });
    const meta = await shared.db.query<{ key: string; value: string }>(
      `SELECT key, value FROM ${quoteIdent(sharedSchemaFor(target.stateDir))}.memory_meta WHERE key IN ('embedder', 'dims') ORDER BY key`,
    );
    expect(meta.rows).toEqual([
      { key: 'dims', value: '768' },
      { key: 'embedder', value: 'hash-768' },
    ]);
    expect(readdirSync(join(target.stateDir, 'cache', 'embeddings'))).toEqual([
      cacheFileName('hash-768'),
    ]);
  });

  it('resets one project or all of it on a shared database', async () => {
    for (const projector of [
      projectorPgvector({ pglite: shared.db, embedder }),
      projectorPgvector({ databaseUrl: wire.url, embedder }),
    ]) {
      const target = temp.target();
      await applyLogs(projector, target, LOGS);
      await projector.reset(target, 'alpha');
      let handle = await projector.init(target);
      expect(await projector.position(handle, 'alpha')).toBeNull();
      expect(await projector.position(handle, 'beta')).not.toBeNull();
      await projector.close(handle);
      await projector.reset(target);
      handle = await projector.init(target);
      expect(await projector.position(handle, 'beta')).toBeNull();
      await projector.close(handle);
    }
  });

  it('sets the HNSW indexes aside during a bulk load, builds them at seal, and writes the same rows as small batches', async () => {
    const refs: Payload[] = Array.from({ length: 1100 }, (_, i) =>
      payload.reference(`reference passage ${i} about ${i % 7 === 0 ? 'kong' : 'kubectl'} flags`),
    );
    const projector = projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(32) });
    const hnsw = async (stateDir: string) =>
      (
        await shared.db.query<{ indexname: string }>(
          `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '% USING hnsw %' ORDER BY 1`,
          [sharedSchemaFor(stateDir)],
        )
      ).rows.map((r) => r.indexname);

    const bulk = temp.target();
    const events = projected(chainEvents('docs', refs));
    let handle = await projector.init(bulk);
    await projectStretch(projector, handle, 'docs', events);
    expect(await hnsw(bulk.stateDir)).toEqual([]);
    await projector.seal(handle);
    expect(await hnsw(bulk.stateDir)).toEqual([
      'memory_vector_symptom_hnsw',
      'memory_vector_text_hnsw',
    ]);
    const bulkDigest = await projector.digest!(handle);
    await projector.close(handle);

    const trickle = temp.target();
    handle = await projector.init(trickle);
    for (let i = 0; i < events.length; i += 300)
      await projectStretch(projector, handle, 'docs', events.slice(i, i + 300));
    await projector.seal(handle);
    expect(await projector.digest!(handle)).toEqual(bulkDigest);
    await projector.close(handle);

    // Closed before its seal (a crash): the next init builds what the load set aside.
    const crashed = temp.target();
    handle = await projector.init(crashed);
    await projectStretch(projector, handle, 'docs', events);
    await projector.close(handle);
    expect(await hnsw(crashed.stateDir)).toEqual([]);
    handle = await projector.init(crashed);
    expect(await hnsw(crashed.stateDir)).toEqual([
      'memory_vector_symptom_hnsw',
      'memory_vector_text_hnsw',
    ]);
    expect(await projector.digest!(handle)).toEqual(bulkDigest);
    await projector.close(handle);
  });
});

describe('backend errors', () => {
  const temp = tempTargets();
  afterAll(() => temp.cleanup());

  it('explains a DATABASE_URL without the vector extension: CONFIG_INVALID naming CREATE EXTENSION vector', async () => {
    const db = await PGlite.create();
    const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
    await server.start();
    try {
      const projector = projectorPgvector({
        databaseUrl: `postgres://postgres:secret@${server.getServerConn()}/postgres`,
        embedder,
      });
      const error = await projector.init(temp.target()).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'CONFIG_INVALID',
        details: { fix: 'CREATE EXTENSION vector' },
      });
      expect((error as Error).message).toMatch(/CREATE EXTENSION vector;/);
      expect((error as Error).message).not.toContain('secret');
    } finally {
      await server.stop();
      await db.close();
    }
  });

  it('says IO_FAILED for a DATABASE_URL nobody answers, without its password', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const error = await projectorPgvector({
      databaseUrl: `postgres://app:hunter2@127.0.0.1:${port}/memory`,
      embedder,
    })
      .init(temp.target())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IO_FAILED' });
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect((error as Error).message).not.toContain('hunter2');
    await expect(
      projectorPgvector({ databaseUrl: 'not a url', embedder }).init(temp.target()),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
