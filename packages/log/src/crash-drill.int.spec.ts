import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasErrorCode } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, drillPlan, drillSeed } from '../test-fixtures/crash-drill.mjs';
import { tempLogDir } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';
import { thrown } from '../../../test/support/thrown.js';

// The drill's own replayability: a failure found with one seed must come back with that seed.
const child = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'test-fixtures',
  'append-child.mjs',
);
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

/** One appender child writing 40 events in random batches (up to 8) with random padding. */
async function appendWithSeed(
  dir: string,
  seed: number,
): Promise<{ acks: string; reasons: string[] }> {
  const acks = execFileSync(
    process.execPath,
    [child, dir, 'seeded', 't', '40', '8', '300', String(seed)],
    { encoding: 'utf8' },
  );
  const reasons: string[] = [];
  for await (const { event } of new EventLog({ dir }).read('seeded'))
    if (event.type === 'tombstone') reasons.push(event.reason);
  return { acks, reasons };
}

describe('the crash drill is replayable from one seed', () => {
  it('an appender child given the same seed writes the same batches and paddings; another seed, others', async () => {
    const first = await appendWithSeed(join(temp.root, 'a'), 7);
    const again = await appendWithSeed(join(temp.root, 'b'), 7);
    const other = await appendWithSeed(join(temp.root, 'c'), 8);
    expect(first.reasons).toHaveLength(40);
    expect(again).toEqual(first);
    expect(other.acks === first.acks && other.reasons.join() === first.reasons.join()).toBe(false);
  });

  it('the kill plan (acks before the kill, delay, child seed) repeats for a seed and stays in bounds', () => {
    const options = { kills: 50, maxAcks: 3, maxDelayMs: 20 };
    const plan = drillPlan({ seed: 123, ...options });
    expect(drillPlan({ seed: 123, ...options })).toEqual(plan);
    expect(drillPlan({ seed: 124, ...options })).not.toEqual(plan);
    expect(plan).toHaveLength(50);
    for (const run of plan) {
      expect(
        Number.isInteger(run.killAfterAcks) && run.killAfterAcks >= 0 && run.killAfterAcks <= 3,
      ).toBe(true);
      expect(run.killAfterMs >= 0 && run.killAfterMs < 20).toBe(true);
      expect(Number.isInteger(run.childSeed) && run.childSeed >= 0 && run.childSeed < 2 ** 32).toBe(
        true,
      );
    }
  });

  it('MEM_DRILL_SEED picks the seed; without it one is drawn; a bad one is CONFIG_INVALID naming it', () => {
    expect(drillSeed({ MEM_DRILL_SEED: '4294967295' })).toBe(4294967295);
    expect(drillSeed({ MEM_DRILL_SEED: '0' })).toBe(0);
    const drawn = drillSeed({});
    expect(Number.isInteger(drawn) && drawn >= 0 && drawn < 2 ** 32).toBe(true);
    for (const bad of ['', 'x', '-1', '1.5', '4294967296', ' 3']) {
      const error = thrown(() => drillSeed({ MEM_DRILL_SEED: bad }));
      expect(hasErrorCode(error, 'CONFIG_INVALID'), bad).toBe(true);
      expect(error).toMatchObject({ details: { variable: 'MEM_DRILL_SEED', value: bad } });
    }
  });

  it('a missing build is NOT_FOUND naming the file and the command that builds it, before any child starts', () => {
    const missing = join(temp.root, 'dist', 'index.js');
    const error = thrown(() => assertBuilt([missing]));
    expect(hasErrorCode(error, 'NOT_FOUND')).toBe(true);
    expect(error).toMatchObject({ details: { path: missing } });
    expect((error as Error).message).toContain('npx tsc -b');
    expect(() => assertBuilt()).not.toThrow();
  });
});
