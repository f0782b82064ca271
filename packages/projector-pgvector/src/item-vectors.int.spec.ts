import { describe, expect, it } from 'vitest';
import { itemId, sha256Hex, type Payload } from '@mem/core';
import { usePglite } from '../test/pglite-servers.js';
import { applyLogs, chainEvents, projected, suiteTargets } from '../test/support.js';
import { tableEmbedder } from '../test/table-embedder.js';
import { projectStretch } from '@mem/engine';
import { projectorPgvector } from './projector.js';
import type { VectorRecall } from './recall-types.js';
import { openVectorRecall } from './vector-recall.js';

/*
 * Curated items (issue 13 §1) have a text vector at level I, keyed by the item's node sha (the
 * item store's: sha256 of project NUL seq of its item_added), so a vector hit on an item is the
 * node the keyword leg knows. The vector follows the item's text (summary, then detail); an
 * archived item leaves recall until it is active again; a deleted one leaves for good.
 */
const TESTS = 'Run the tests with conda run -n bk python -m pytest';
const TESTS_REWORDED = 'The test suite runs under conda: conda run -n bk python -m pytest';
const TESTS_DETAIL = `${TESTS}\n\nNever plain pytest: the system python lacks the deps.`;
const DEPLOY = 'Deploy with make release from a clean tree';
const VECTORS: Record<string, number[]> = {
  [TESTS]: [1, 0, 0],
  [TESTS_REWORDED]: [0, 0, 1],
  [TESTS_DETAIL]: [0.6, 0.8, 0],
  [DEPLOY]: [0, 1, 0],
};
const Q = Float32Array.from([1, 0, 0]);

/** The node sha the item store gives the item that `seq` added in `project`. */
const itemSha = (project: string, seq: number) => sha256Hex(`${project}\u0000${seq}`);

const added = (summary: string, type: 'rule' | 'fact' | 'task' = 'rule'): Payload => ({
  type: 'item_added',
  item_type: type,
  summary,
});

const shared = usePglite();

describe('pgvector item vectors', () => {
  const temp = suiteTargets();
  const embedder = tableEmbedder(VECTORS);

  async function project(logs: Record<string, Payload[]>): Promise<VectorRecall> {
    const target = temp.target();
    await applyLogs(projectorPgvector({ pglite: shared.db, embedder }), target, logs);
    const recall = await openVectorRecall({ pglite: shared.db, stateDir: target.stateDir });
    return temp.opened(recall);
  }
  const items = async (recall: VectorRecall, projects = ['demo']) =>
    (await recall.recall('text', Q, { projects, levels: ['I'] }, 10)).map((hit) => [
      hit.project,
      hit.sha256,
    ]);

  it('an added item is a level-I text vector under its node sha, nearest first', async () => {
    const recall = await project({ demo: [added(DEPLOY), added(TESTS)] });
    const hits = await recall.recall('text', Q, { projects: ['demo'], levels: ['I'] }, 10);
    expect(hits.map((h) => [h.level, h.sha256, h.distance])).toEqual([
      ['I', itemSha('demo', 2), expect.closeTo(0, 6)],
      ['I', itemSha('demo', 1), expect.closeTo(1, 6)],
    ]);
    // Items stay out of a recall of the memory levels.
    expect(
      await recall.recall('text', Q, { projects: ['demo'], levels: ['L1', 'L2'] }, 10),
    ).toEqual([]);
  });

  it('an update of the summary or the detail re-embeds the item; an update of neither keeps its vector', async () => {
    const id = itemId('demo', 1);
    const reworded = await project({
      demo: [
        added(TESTS),
        { type: 'item_updated', item: id, summary: TESTS_REWORDED, reason: 'reworded' },
      ],
    });
    const [hit] = await reworded.recall('text', Q, { projects: ['demo'], levels: ['I'] }, 10);
    expect(hit!.distance).toBeCloseTo(1, 6);
    const detailed = await project({
      demo: [
        added(TESTS, 'task'),
        { type: 'item_updated', item: id, detail: TESTS_DETAIL.split('\n\n')[1]!, reason: 'why' },
        { type: 'item_updated', item: id, status: 'in_progress', reason: 'started' },
      ],
    });
    const [detail] = await detailed.recall('text', Q, { projects: ['demo'], levels: ['I'] }, 10);
    expect(detail!.distance).toBeCloseTo(0.4, 6);
  });

  it('an archived item leaves recall and comes back when active again; a deleted one never returns', async () => {
    const archive = (seq: number, attention: 'archive' | 'active'): Payload => ({
      type: 'item_attention_set',
      item: itemId('demo', seq),
      attention,
    });
    const archived = await project({ demo: [added(TESTS), added(DEPLOY), archive(1, 'archive')] });
    expect(await items(archived)).toEqual([['demo', itemSha('demo', 2)]]);
    const restored = await project({
      demo: [added(TESTS), archive(1, 'archive'), archive(1, 'active')],
    });
    expect(await items(restored)).toEqual([['demo', itemSha('demo', 1)]]);
    const deleted = await project({
      demo: [
        added(TESTS),
        added(DEPLOY),
        { type: 'item_deleted', item: itemId('demo', 1), reason: 'wrong' },
        // A later update of a deleted item gives it no vector back.
        { type: 'item_updated', item: itemId('demo', 1), summary: TESTS_REWORDED, reason: 'x' },
      ],
    });
    expect(await items(deleted)).toEqual([['demo', itemSha('demo', 2)]]);
  });

  it("another project's items are never recalled", async () => {
    const recall = await project({ demo: [added(DEPLOY)], other: [added(TESTS)] });
    expect(await items(recall)).toEqual([['demo', itemSha('demo', 1)]]);
    expect(await items(recall, ['other'])).toEqual([['other', itemSha('other', 1)]]);
  });

  it('one event per batch gives the rows one batch of all of them gives', async () => {
    const id = itemId('demo', 1);
    const log: Payload[] = [
      added(TESTS),
      added(DEPLOY),
      { type: 'item_updated', item: id, summary: TESTS_REWORDED, reason: 'reworded' },
      { type: 'item_attention_set', item: itemId('demo', 2), attention: 'archive' },
      { type: 'item_updated', item: id, summary: TESTS, reason: 'back' },
      { type: 'item_deleted', item: itemId('demo', 2), reason: 'gone' },
    ];
    const projector = projectorPgvector({ pglite: shared.db, embedder });
    const once = temp.target();
    await applyLogs(projector, once, { demo: log });
    const incremental = temp.target();
    const handle = await projector.init(incremental);
    try {
      for (const event of chainEvents('demo', log))
        await projectStretch(projector, handle, 'demo', projected([event]));
      await projector.seal(handle);
    } finally {
      await projector.close(handle);
    }
    const digest = async (target: typeof once) => {
      const h = await projector.init(target);
      try {
        return await projector.digest!(h);
      } finally {
        await projector.close(h);
      }
    };
    const a = await digest(once);
    expect(a['memory_item']).toBeDefined();
    expect(await digest(incremental)).toEqual(a);
  });
});
