import { statSync, readdirSync } from 'node:fs';
import { projectStretch } from '@mem/engine';
import { join } from 'node:path';
import { hasErrorCode } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, fixturePayloads, projected, tempRoot } from '../test/support.js';
import { openItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

const P = 'demo';
const RUN_L1 = 'run-2026-08-17-infra-1';
const RUN_L2 = 'run-2026-08-17-synthesis-1';
const EV_KONG = '56f6bc4f22a9c4c448b653ae11ad93d6a55dee7df24ba843cc1ea76e26155c07';
const EV_PG = '94af7d3928e418e68468ee1a6aa51d19d8fc97bc6a24b762923b4f52a4370391';
const L1_FIRST = '9973662d51379cd9e7883bee282b079670398f795abd51a44411326caede2421';
const L1_FINAL = '1fd7df455f58635a537a39a35ffa2bb3ffa65dc46a53736af2b133c346942bba';
const L2 = '05d5586e42c8d23e3f27bd1d4d7255ed4166c4b15ec1831601b142f0599a6741';

describe('projectorSqlite on the sample extraction runs', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  async function projectFixture() {
    const events = chainEvents(P, fixturePayloads());
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, projected(events));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    return events;
  }

  it('writes nodes at their levels with the query of their run', async () => {
    await projectFixture();
    const store = openItemStore(join(root.target.stateDir, 'items.sqlite'));
    try {
      const all = store.nodes({ project: P, includeSuperseded: true });
      expect(all.map((n) => [n.level, n.kind, n.sha256, n.query_id, n.t])).toEqual([
        ['L0', 'evidence', EV_KONG, 'infra-root-causes', 2],
        ['L1', 'memory', L1_FIRST, 'infra-root-causes', 2],
        ['L0', 'evidence', EV_PG, 'infra-root-causes', 4],
        ['L1', 'memory', L1_FINAL, 'infra-root-causes', 4],
        ['L2', 'memory', L2, null, 1],
      ]);
      const evidence = store.node(P, EV_KONG);
      expect(evidence).toMatchObject({
        source: 'claude:0b7f4f9e-session',
        run_id: RUN_L1,
        seq: 6,
        created_ts: '2026-08-17T09:00:05.000Z',
        meta: {},
      });
      expect(store.node(P, L1_FINAL)?.meta).toMatchObject({
        parents: [EV_KONG, EV_PG],
        tokens: 46,
      });
    } finally {
      store.close();
    }
  });

  it('chains memories: each replaces the head of its query', async () => {
    await projectFixture();
    const store = openItemStore(join(root.target.stateDir, 'items.sqlite'));
    try {
      expect(store.node(P, L1_FIRST)?.superseded_by).toBe(L1_FINAL);
      expect(store.node(P, L1_FINAL)?.superseded_by).toBeNull();
      expect(store.node(P, L2)?.superseded_by).toBeNull();
      expect(store.nodes({ project: P, levels: ['L1', 'L2'] }).map((n) => n.sha256)).toEqual([
        L1_FINAL,
        L2,
      ]);
    } finally {
      store.close();
    }
  });

  it('writes provenance edges L1 → L0 and L2 → L1', async () => {
    await projectFixture();
    const store = openItemStore(join(root.target.stateDir, 'items.sqlite'));
    try {
      const parentsOf = (sha: string) =>
        store
          .edges(P, sha, 'parents')
          .map((e) => `${e.child_level}>${e.parent_level}:${e.parent_sha.slice(0, 4)}`);
      expect(parentsOf(L1_FIRST)).toEqual(['L1>L0:56f6']);
      expect(parentsOf(L1_FINAL)).toEqual(['L1>L0:56f6', 'L1>L0:94af']);
      expect(parentsOf(L2)).toEqual(['L2>L1:1fd7']);
      expect(store.edges(P, EV_KONG, 'children').map((e) => e.child_sha)).toEqual(
        [L1_FINAL, L1_FIRST].sort(),
      );
    } finally {
      store.close();
    }
  });

  it('writes runs with their ends, chunks, gates and the position', async () => {
    const events = await projectFixture();
    const store = openItemStore(join(root.target.stateDir, 'items.sqlite'));
    try {
      const [l1] = store.runs(P, 'infra-root-causes');
      expect(l1).toMatchObject({
        run_id: RUN_L1,
        level: 'L1',
        input_level: 'chunk',
        model: 'heuristic',
        exit_gate: false,
        started_seq: 1,
        chunks_seen: 5,
        chunks_used: 2,
        final_memory_sha: L1_FINAL,
        error: null,
        ended_seq: 16,
      });
      const [l2] = store.runs(P, null);
      expect(l2).toMatchObject({
        run_id: RUN_L2,
        level: 'L2',
        query_id: null,
        exit_gate: true,
        chunks_seen: 1,
        chunks_used: 1,
        final_memory_sha: L2,
      });
      expect(store.seenChunkShas(P, 'infra-root-causes')).toHaveLength(5);
      expect(store.seenChunkShas(P, null)).toEqual([L1_FINAL]);
      expect(store.gateCounts(P, RUN_L1)).toEqual({ gates: 5, updates: 2, exits: 0 });
      expect(store.gateCounts(P, RUN_L2)).toEqual({ gates: 1, updates: 1, exits: 1 });
      const last = events[events.length - 1]!;
      expect(store.positions()).toEqual([{ project: P, seq: last.event.seq, head: last.hash }]);
    } finally {
      store.close();
    }
  });

  it('indexes text for full-text search', async () => {
    await projectFixture();
    const store = openItemStore(join(root.target.stateDir, 'items.sqlite'));
    try {
      expect(store.search('kong', { levels: ['L0'] }).map((h) => h.node.sha256)).toEqual([EV_KONG]);
      // porter stemming: "buffering" finds "buffered"
      expect(
        store
          .search('buffering', { project: P, includeSuperseded: true })
          .map((h) => h.node.level)
          .sort(),
      ).toEqual(['L0', 'L1', 'L1', 'L2']);
      expect(
        store
          .search('buffering', { project: P })
          .map((h) => h.node.sha256)
          .sort(),
      ).toEqual([EV_KONG, L1_FINAL, L2].sort());
    } finally {
      store.close();
    }
  });

  it('refuses to apply an event twice, by position', async () => {
    const events = chainEvents(P, fixturePayloads());
    const handle = await projectorSqlite.init(root.target);
    try {
      await projectStretch(projectorSqlite, handle, P, projected(events.slice(0, 5)));
      await expect(
        projectStretch(projectorSqlite, handle, P, projected(events.slice(4, 8))),
      ).rejects.toSatisfy((e) => hasErrorCode(e, 'PROJECTION_FAILED'));
      await expect(
        projectStretch(projectorSqlite, handle, P, projected(events.slice(0, 5))),
      ).rejects.toSatisfy((e) => hasErrorCode(e, 'PROJECTION_FAILED'));
      await expect(
        projectStretch(projectorSqlite, handle, P, projected(events.slice(6, 8))),
      ).rejects.toSatisfy((e) => hasErrorCode(e, 'PROJECTION_FAILED'));
      expect(await projectorSqlite.position(handle, P)).toEqual({ seq: 5, head: events[4]!.hash });
      await projectStretch(projectorSqlite, handle, P, projected(events.slice(5)));
      expect((await projectorSqlite.position(handle, P))?.seq).toBe(events.length);
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('refuses a batch that does not chain from the stored head', async () => {
    const events = chainEvents(P, fixturePayloads());
    const other = chainEvents(P, fixturePayloads().slice(1));
    const handle = await projectorSqlite.init(root.target);
    try {
      await projectStretch(projectorSqlite, handle, P, projected(events.slice(0, 1)));
      // seq 2 of another log: right seq, wrong prev
      await expect(
        projectStretch(projectorSqlite, handle, P, projected(other.slice(1, 2))),
      ).rejects.toSatisfy((e) => hasErrorCode(e, 'PROJECTION_FAILED'));
      // a batch that skips a line inside it
      await expect(
        projectStretch(projectorSqlite, handle, P, projected([events[1]!, events[3]!])),
      ).rejects.toSatisfy((e) => hasErrorCode(e, 'PROJECTION_FAILED'));
      // a batch of another project
      await expect(
        projectStretch(projectorSqlite, handle, 'other', projected(events.slice(1, 2))),
      ).rejects.toSatisfy((e) => hasErrorCode(e, 'PROJECTION_FAILED'));
      expect(await projectorSqlite.position(handle, P)).toEqual({ seq: 1, head: events[0]!.hash });
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('refuses an unknown event type loudly and writes nothing of its batch', async () => {
    const events = projected(chainEvents(P, fixturePayloads()).slice(0, 3));
    const bogus = {
      ...events[2]!,
      event: { ...events[2]!.event, type: 'mystery' },
    } as unknown as (typeof events)[number];
    const handle = await projectorSqlite.init(root.target);
    try {
      await expect(
        projectStretch(projectorSqlite, handle, P, [events[0]!, events[1]!, bogus]),
      ).rejects.toSatisfy((e) => hasErrorCode(e, 'UNKNOWN_EVENT_TYPE'));
      expect(await projectorSqlite.position(handle, P)).toBeNull();
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('owns exactly .mem/items.sqlite and its WAL, empty once no writer holds it; verify compares it by digest, not as a file output', async () => {
    await projectFixture();
    const live = join(root.target.stateDir, 'items.sqlite');
    // A store caught up in place holds a rebuild's rows, not its bytes: no byte-compared output.
    expect(await projectorSqlite.outputs(root.target)).toEqual([]);
    const handle = await projectorSqlite.init(root.target);
    try {
      expect(Object.keys(await projectorSqlite.digest!(handle))).toContain('node_fts');
    } finally {
      await projectorSqlite.close(handle);
    }
    const store = openItemStore(live);
    store.search('kong');
    store.close();
    // A reader of a WAL file creates its -wal and -shm (a read-only one cannot remove them);
    // with no writer open the -wal holds no page, and no rollback journal is ever left.
    expect(readdirSync(root.target.stateDir).sort()).toEqual([
      'items.sqlite',
      'items.sqlite-shm',
      'items.sqlite-wal',
    ]);
    expect(statSync(`${live}-wal`).size).toBe(0);
    // A reset empties the file in place (other connections hold it): same inode, no rows,
    // nothing left in the -wal, and no scratch file beside it.
    const inode = statSync(live).ino;
    await projectorSqlite.reset(root.target);
    expect(statSync(live).ino).toBe(inode);
    expect(statSync(`${live}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect(
      readdirSync(root.target.stateDir).filter((f) => !/^items\.sqlite(-wal|-shm)?$/.test(f)),
    ).toEqual([]);
    const emptied = openItemStore(live);
    try {
      expect(emptied.positions()).toEqual([]);
      expect(emptied.nodes({ project: P })).toEqual([]);
    } finally {
      emptied.close();
    }
  });
});
