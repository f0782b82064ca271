import { join } from 'node:path';
import { projectStretch } from '@mem/engine';
import { contentSha256, uniformLines } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, projected, tempRoot } from '../test/support.js';
import { openItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

const P = 'demo';
const TEXT = 'The staging token leaked into the CI log.';
const SHA = contentSha256(TEXT);

const run = {
  type: 'run',
  run_id: 'r-1',
  level: 'L1',
  query_id: 'incidents',
  input_level: 'chunk',
  model: 'heuristic',
  chunk_tokens: 5000,
  memory_budget: 1024,
  exit_gate: false,
};
const evidence = {
  type: 'evidence',
  run_id: 'r-1',
  level: 'L0',
  t: 1,
  source: 'claude:s-1',
  text: TEXT,
  sha256: SHA,
};
const memory = {
  type: 'memory',
  run_id: 'r-1',
  level: 'L1',
  t: 1,
  text: TEXT,
  tokens: 9,
  parents: [SHA],
  sha256: SHA,
  lines: uniformLines(TEXT, [SHA]),
};
const reference = {
  type: 'reference',
  level: 'R',
  source: 'docs:incidents.md',
  heading_path: ['2026'],
  text: TEXT,
  sha256: SHA,
};
const tombstone = (reason: string) => ({ type: 'tombstone', target: SHA, reason });

describe('tombstones', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  async function apply(payloads: Record<string, unknown>[]) {
    const events = chainEvents(P, payloads);
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, projected(events));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    return { events, store: openItemStore(join(root.target.stateDir, 'items.sqlite')) };
  }

  it('after the node: marks every node of that sha in the project, at every level', async () => {
    const { events, store } = await apply([
      run,
      evidence,
      memory,
      reference,
      tombstone('leaked secret'),
    ]);
    try {
      const ts = events[4]!.event.ts;
      const all = store.nodes({ project: P, includeDeleted: true });
      expect(all.map((n) => [n.level, n.deleted_at])).toEqual([
        ['L0', ts],
        ['L1', ts],
        ['R', ts],
      ]);
      expect(store.nodes({ project: P })).toEqual([]);
      expect(store.search('leaked')).toEqual([]);
      expect(store.search('leaked', { includeDeleted: true })).toHaveLength(3);
    } finally {
      store.close();
    }
  });

  it('before the node: a node that arrives later is deleted on arrival', async () => {
    const { events, store } = await apply([tombstone('leaked secret'), run, evidence, memory]);
    try {
      const ts = events[0]!.event.ts;
      expect(store.nodes({ project: P, includeDeleted: true }).map((n) => n.deleted_at)).toEqual([
        ts,
        ts,
      ]);
    } finally {
      store.close();
    }
  });

  it('the first tombstone wins: a second one changes neither the reason nor deleted_at', async () => {
    const { events, store } = await apply([run, evidence, tombstone('first'), tombstone('second')]);
    try {
      expect(store.node(P, SHA)?.deleted_at).toBe(events[2]!.event.ts);
    } finally {
      store.close();
    }
  });

  it('stays inside its project', async () => {
    const events = chainEvents('other', [run, evidence]);
    const { store } = await apply([tombstone('leaked secret')]);
    store.close();
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, 'other', projected(events));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    const reopened = openItemStore(join(root.target.stateDir, 'items.sqlite'));
    try {
      expect(reopened.node('other', SHA)?.deleted_at).toBeNull();
    } finally {
      reopened.close();
    }
  });
});
