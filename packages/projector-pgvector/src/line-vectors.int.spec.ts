import { describe, expect, it } from 'vitest';
import type { Payload } from '@mem/core';
import type { ProjectionTarget } from '@mem/engine';
import { projectStretch } from '@mem/engine';
import { usePglite } from '../test/pglite-servers.js';
import { applyLogs, chainEvents, payload, projected, sha, suiteTargets } from '../test/support.js';
import { tableEmbedder } from '../test/table-embedder.js';
import { projectorPgvector } from './projector.js';
import { quoteIdent, sharedSchemaFor } from './schema/identifiers.js';
import type { VectorRecall } from './recall-types.js';
import { openVectorRecall } from './vector-recall.js';

/*
 * A vector hit on L1/L2 is a line (issue 11 §3): each line of a memory has its own text vector,
 * live exactly while some memory holding it is a live head, and a forgotten or superseded line
 * (issue 12) leaves recall. Whole-memory texts are in the table too, so a projection that still
 * embedded memories would fail on what it returns, not on the embedder.
 */
const KONG = 'Kong buffered the body';
const CI = 'CI flake: pg started before its volume mount';
const DNS = 'CoreDNS cached the old record';
const VECTORS: Record<string, number[]> = {
  [KONG]: [1, 0, 0],
  [CI]: [0, 1, 0],
  [DNS]: [0, 0, 1],
  [`- ${KONG}`]: [1, 0, 0],
  [`- ${KONG}\n- ${CI}`]: [0.9, 0.1, 0],
  [`- ${KONG}\n- ${DNS}`]: [0.9, 0, 0.1],
  [`- ${KONG}\n- ${CI}\n- ${DNS}`]: [0.8, 0.1, 0.1],
  'evidence one': [0.5, 0.5, 0],
  'pg raced its volume': [0, 1, 0],
  symptom: [0, 0.5, 0.5],
};
const Q = Float32Array.from([1, 0, 0]);

const shared = usePglite();

describe('pgvector line vectors', () => {
  const temp = suiteTargets();
  const embedder = tableEmbedder(VECTORS);

  async function project(events: Payload[]): Promise<VectorRecall> {
    const target: ProjectionTarget = temp.target();
    await applyLogs(projectorPgvector({ pglite: shared.db, embedder }), target, { demo: events });
    const recall = await openVectorRecall({ pglite: shared.db, stateDir: target.stateDir });
    return temp.opened(recall);
  }
  const texts = async (recall: VectorRecall, kind: 'text' | 'symptom' = 'text') =>
    (await recall.recall(kind, Q, { projects: ['demo'], levels: ['L1', 'L2'] }, 10)).map(
      (hit) => hit.sha256,
    );
  const chain: Payload[] = [
    payload.run('r1'),
    payload.evidence('r1', 1, 'evidence one'),
    payload.memory('r1', 1, `- ${KONG}\n- ${DNS}`, ['evidence one']),
    payload.memory('r1', 2, `- ${KONG}\n- ${CI}`, ['evidence one'], { symptom: 'symptom' }),
  ];

  it("returns the head's lines, each at its own distance; a line only a replaced memory held is gone", async () => {
    const recall = await project(chain);
    const hits = await recall.recall('text', Q, { projects: ['demo'], levels: ['L1'] }, 10);
    expect(hits.map((h) => [h.sha256, h.distance])).toEqual([
      [sha(KONG), expect.closeTo(0, 6)],
      [sha(CI), expect.closeTo(1, 6)],
    ]);
    // The symptom is the memory's, carried by each of its live lines.
    expect((await texts(recall, 'symptom')).sort()).toEqual([sha(KONG), sha(CI)].sort());
  });

  it('a forgotten line leaves vector recall; the rest of its memory stays', async () => {
    const forget: Payload = {
      type: 'forgotten',
      target: sha(KONG),
      target_kind: 'line',
      before_sha256: sha(KONG),
      refuses: [{ sha256: sha(KONG), terms: [] }],
      reason: 'wrong',
    };
    const recall = await project([...chain, forget]);
    expect(await texts(recall)).toEqual([sha(CI)]);
    expect(await texts(recall, 'symptom')).toEqual([sha(CI)]);
  });

  it('a forgotten line’s vectors are deleted, both kinds, applied at once (a rebuild) or after its memory (incremental), with one digest', async () => {
    const forget: Payload = {
      type: 'forgotten',
      target: sha(KONG),
      target_kind: 'line',
      before_sha256: sha(KONG),
      refuses: [{ sha256: sha(KONG), terms: [] }],
      reason: 'wrong',
    };
    const events = chainEvents('demo', [...chain, forget]);
    const projector = projectorPgvector({ pglite: shared.db, embedder });
    const rowsAndDigest = async (stretches: number[]) => {
      const target = temp.target();
      const handle = await projector.init(target);
      try {
        let from = 0;
        for (const to of stretches) {
          await projectStretch(projector, handle, 'demo', projected(events.slice(from, to)));
          from = to;
        }
        await projector.seal(handle);
        const s = quoteIdent(sharedSchemaFor(target.stateDir));
        const rows = await shared.db.query<{ kind: string }>(
          `SELECT kind FROM ${s}.memory_vector WHERE node_sha = $1 ORDER BY kind, level`,
          [sha(KONG)],
        );
        return { kinds: rows.rows.map((r) => r.kind), digest: await projector.digest!(handle) };
      } finally {
        await projector.close(handle);
      }
    };
    const before = await rowsAndDigest([chain.length]);
    expect(before.kinds).toEqual(['symptom', 'text']);
    const rebuilt = await rowsAndDigest([events.length]);
    const incremental = await rowsAndDigest([chain.length, events.length]);
    expect(rebuilt.kinds).toEqual([]);
    expect(incremental.kinds).toEqual([]);
    expect(incremental.digest).toEqual(rebuilt.digest);
  });

  it('a forgotten memory takes its lines out of recall', async () => {
    const memory = sha(`- ${KONG}\n- ${CI}`);
    const forget: Payload = {
      type: 'forgotten',
      target: memory,
      target_kind: 'memory',
      before_sha256: memory,
      refuses: [
        { sha256: sha(KONG), terms: [] },
        { sha256: sha(CI), terms: [] },
      ],
      reason: 'all of it',
    };
    expect(await texts(await project([...chain, forget]))).toEqual([]);
  });

  const reworded: Payload = {
    type: 'superseded',
    target: sha(CI),
    target_kind: 'line',
    before_sha256: sha(CI),
    after_sha256: sha('pg raced its volume'),
    text: 'pg raced its volume',
    reason: 'reworded',
  };

  it('a superseded line leaves recall and its new text comes in, with the old line’s symptom', async () => {
    const recall = await project([...chain, reworded]);
    expect((await texts(recall)).sort()).toEqual([sha(KONG), sha('pg raced its volume')].sort());
    expect((await texts(recall, 'symptom')).sort()).toEqual(
      [sha(KONG), sha('pg raced its volume')].sort(),
    );
  });

  it('the successor stays while a later memory still holds the old line, and leaves when forgotten', async () => {
    const next = payload.memory('r1', 3, `- ${KONG}\n- ${CI}\n- ${DNS}`, ['evidence one']);
    const kept = await project([...chain, reworded, next]);
    expect((await texts(kept)).sort()).toEqual(
      [sha(KONG), sha(DNS), sha('pg raced its volume')].sort(),
    );
    const forget: Payload = {
      type: 'forgotten',
      target: sha('pg raced its volume'),
      target_kind: 'line',
      before_sha256: sha('pg raced its volume'),
      refuses: [{ sha256: sha('pg raced its volume'), terms: [] }],
      reason: 'wrong again',
    };
    expect(await texts(await project([...chain, reworded, forget]))).toEqual([sha(KONG)]);
  });

  it('a superseded memory leaves recall', async () => {
    const memory = sha(`- ${KONG}\n- ${CI}`);
    const whole: Payload = {
      type: 'superseded',
      target: memory,
      target_kind: 'memory',
      before_sha256: memory,
      after_sha256: sha('pg raced its volume'),
      text: 'pg raced its volume',
      reason: 'rewritten',
    };
    expect(await texts(await project([...chain, whole]))).toEqual([]);
  });
});
