import { availableParallelism } from 'node:os';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// Shared with test/bench/log.bench.mjs: the children import packages/log/dist, which `npm test`'s
// `tsc -b` builds; the drill refuses to start (NOT_FOUND, naming the file) when it is missing.
import {
  assertBuilt,
  drillSeed,
  idsInLog,
  runCrashDrill,
  runWriters,
} from '../test-fixtures/crash-drill.mjs';
import { tempLogDir } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';

// Small segments, so kills and races also land around rotation.
const ROTATE = { MEM_LOG_SEGMENT_BYTES: String(256 * 1024) };
const KILLS = 200;
// Child start-up (node + zod) dominates the drill; more lanes only help with more cores.
const LANES = Math.max(2, Math.min(4, availableParallelism()));
// One seed for every random choice of the drill; it is in the test's title and every failure.
const SEED = drillSeed();
const replay = `replay: MEM_DRILL_SEED=${SEED} npx vitest run packages/log/src/drills.int.spec.ts`;
let temp: ReturnType<typeof tempLogDir>;

beforeAll(() => assertBuilt());
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

describe('real processes', () => {
  it(`crash drill (seed ${SEED}): ${KILLS} SIGKILLs at random moments lose no acknowledged event and duplicate none`, async () => {
    const acked: Set<string> = await runCrashDrill({
      dir: temp.dir,
      project: 'drill',
      seed: SEED,
      kills: KILLS,
      parallel: LANES,
      maxDelayMs: 20,
      env: ROTATE,
    });
    const log = new EventLog({ dir: temp.dir });
    // read() checks seq contiguity and every prev on the way.
    const { counts, events } = await idsInLog(log, 'drill');
    expect(acked.size, replay).toBeGreaterThan(200);
    expect(
      [...acked].filter((id) => counts.get(id) !== 1),
      replay,
    ).toEqual([]);
    expect(
      [...counts].filter(([, count]) => count > 1),
      replay,
    ).toEqual([]);
    const verified = await log.verify('drill');
    expect(verified, replay).toMatchObject({ ok: true, events });
    expect(verified.head.seq, replay).toBe(events);
    expect(verified.segments, replay).toBeGreaterThan(1);
  }, 240_000);

  it('concurrency: 4 processes x 2,000 single-event appends give seqs 1..8000 and every id once', async () => {
    const acks: number[] = await runWriters({
      dir: temp.dir,
      project: 'busy',
      processes: 4,
      appends: 2000,
      env: ROTATE,
    });
    expect(acks).toEqual([2000, 2000, 2000, 2000]);
    const log = new EventLog({ dir: temp.dir });
    const seqs: number[] = [];
    for await (const { event } of log.read('busy')) seqs.push(event.seq);
    expect(seqs).toEqual(Array.from({ length: 8000 }, (_, n) => n + 1));
    const { counts } = await idsInLog(log, 'busy');
    expect(counts.size).toBe(8000);
    for (let w = 0; w < 4; w += 1)
      for (let n = 0; n < 2000; n += 1) expect(counts.get(`w${w}-${n}`)).toBe(1);
    const verified = await log.verify('busy');
    expect(verified).toMatchObject({ ok: true, events: 8000, head: { seq: 8000 } });
    expect(verified.segments).toBeGreaterThan(1);
  }, 120_000);
});
