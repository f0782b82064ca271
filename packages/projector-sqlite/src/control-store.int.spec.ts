import { readFileSync } from 'node:fs';
import { projectStretch } from '@mem/engine';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { splits } from '../../../test/support/arbitraries.js';
import { SYSTEM_PROJECT } from '@mem/core';
import { canonicalBytes } from './canonical-bytes.js';
import { openControlStore } from './control-store.js';
import { projectorSqlite } from './projector.js';
import {
  canonicalContents,
  chainEvents,
  projected,
  rebuiltContents,
  tempRoot,
  type ChainedEvent,
} from '../test/support.js';

function payloads(name: string): Record<string, unknown>[] {
  return readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const roots: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) r.cleanup();
});

async function project(logs: Record<string, ChainedEvent[]>) {
  const t = tempRoot();
  roots.push(t);
  const handle = await projectorSqlite.init(t.target);
  for (const [name, events] of Object.entries(logs))
    await projectStretch(projectorSqlite, handle, name, projected(events));
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
  return { ...t, store: openControlStore(join(t.target.stateDir, 'items.sqlite')) };
}

describe('control tables of the item store', () => {
  it('projects principals, projects, current memberships and tokens from the _system log', async () => {
    const { store } = await project({
      [SYSTEM_PROJECT]: chainEvents(SYSTEM_PROJECT, payloads('administration.jsonl')),
    });
    try {
      expect(store.principals().map((p) => p.name)).toEqual(['alice', 'bob']);
      expect(store.registeredProjects().map((p) => p.name)).toEqual(['alpha', 'beta']);
      // alice left beta: membership is current state, not history.
      expect(store.membershipsOf('alice')).toEqual(['alpha']);
      expect(store.members('beta').map((m) => m.principal)).toEqual(['bob']);
      const console = store.token('0123456789abcdef')!;
      expect(console).toMatchObject({
        label: 'console',
        principal: 'alice',
        projects: '*',
        capabilities: ['admin', 'may_write_rules'],
        expires_at: null,
        revoked_seq: null,
      });
      const ci = store.token('fedcba9876543210')!;
      expect(ci).toMatchObject({
        projects: ['beta'],
        capabilities: [],
        expires_at: '2031-01-01T00:00:00.000Z',
        revoke_reason: 'rotated',
      });
      expect(ci.revoked_seq).toBe(11);
      expect(store.tokens().map((t) => t.token_id)).toEqual([
        '0123456789abcdef',
        'fedcba9876543210',
      ]);
    } finally {
      store.close();
    }
  });

  it('ignores identity events outside _system: only _system grants authority', async () => {
    const { store } = await project({
      demo: chainEvents('demo', payloads('administration.jsonl')),
    });
    try {
      expect(store.principals()).toEqual([]);
      expect(store.tokens()).toEqual([]);
      expect(store.positions()).toEqual([expect.objectContaining({ project: 'demo', seq: 11 })]);
    } finally {
      store.close();
    }
  });

  it('projects ingest jobs: accepted, then finished done or failed; the unfinished ones in order', async () => {
    const { store } = await project({
      demo: chainEvents('demo', payloads('ingest-jobs.jsonl'), {
        writer: { kind: 'api', principal: 'alice', token: 'console' },
      }),
    });
    try {
      const done = store.ingestJobByIngestId('demo', 'batch-1')!;
      expect(done).toMatchObject({
        status: 'done',
        records: 2,
        chunks: 1,
        appended: 3,
        principal: 'alice',
        token_label: 'console',
        error: null,
      });
      expect(store.ingestJob('ingest-0d4b6a7e-31c2-4f0e-8b7a-5c6d7e8f9a0b')).toMatchObject({
        status: 'failed',
        error: { code: 'MODEL_FAILED', message: 'controller unreachable' },
      });
      expect(store.unfinishedIngestJobs().map((j) => j.ingest_id)).toEqual(['batch-3']);
      expect(store.lastIngestJob('demo')?.ingest_id).toBe('batch-3');
      expect(store.ingestJobByIngestId('other', 'batch-1')).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('resetting _system empties identity and leaves other projects; replaying restores the same bytes', async () => {
    const system = chainEvents(SYSTEM_PROJECT, payloads('administration.jsonl'));
    const demo = chainEvents('demo', payloads('ingest-jobs.jsonl'));
    const { target, store } = await project({ [SYSTEM_PROJECT]: system, demo });
    store.close();
    const path = join(target.stateDir, 'items.sqlite');
    const before = canonicalBytes(path);
    await projectorSqlite.reset(target, SYSTEM_PROJECT);
    const emptied = openControlStore(path);
    expect(emptied.principals()).toEqual([]);
    expect(emptied.tokens()).toEqual([]);
    expect(emptied.ingestJobByIngestId('demo', 'batch-1')).toBeDefined();
    emptied.close();
    const handle = await projectorSqlite.init(target);
    await projectStretch(projectorSqlite, handle, SYSTEM_PROJECT, projected(system));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    expect(canonicalBytes(path).equals(before)).toBe(true);
  });

  it('applied in random splits, with seals between, the control tables hold the rows of one rebuild, and its bytes once sealed canonically', async () => {
    const system = chainEvents(SYSTEM_PROJECT, payloads('administration.jsonl'));
    const demo = chainEvents('demo', payloads('ingest-jobs.jsonl'));
    const { target: once } = await project({ [SYSTEM_PROJECT]: system, demo });
    const expected = await rebuiltContents(once);
    await fc.assert(
      fc.asyncProperty(splits(system.length), splits(demo.length), async (systemCuts, demoCuts) => {
        const t = tempRoot();
        roots.push(t);
        const batches = (events: ChainedEvent[], cuts: number[]) =>
          [0, ...cuts, events.length]
            .slice(1)
            .map((end, i, all) => events.slice(i === 0 ? 0 : all[i - 1], end));
        const plan = [
          ...batches(demo, demoCuts).map((b) => ['demo', b] as const),
          ...batches(system, systemCuts).map((b) => [SYSTEM_PROJECT, b] as const),
        ];
        for (const [name, batch] of plan) {
          const handle = await projectorSqlite.init(t.target);
          await projectStretch(projectorSqlite, handle, name, projected(batch));
          await projectorSqlite.seal(handle);
          await projectorSqlite.close(handle);
        }
        const actual = await canonicalContents(t.target);
        expect(actual.digest).toEqual(expected.digest);
        expect(actual.bytes.equals(expected.bytes)).toBe(true);
      }),
      { numRuns: 10 },
    );
  });
});
