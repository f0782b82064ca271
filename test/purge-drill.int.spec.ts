import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '@mem/core';
import { EventLog, type PurgeStep } from '@mem/log';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, drillSeed } from '../packages/log/test-fixtures/crash-drill.mjs';
import { memProcess } from './support/mem-cli.js';

/*
 * The purge crash drill (issue 12, item 6): a real child purging a three-segment log is
 * SIGKILLed at each step; the next `mem verify` settles the log, which is then the old log or
 * the purged one byte for byte, never a mix. Layout and kill points come from MEM_DRILL_SEED.
 */
const child = join(
  import.meta.dirname,
  '..',
  'packages',
  'log',
  'test-fixtures',
  'purge-child.mjs',
);
const SECRET = 'Ines Okonkwo-Vardanyan of 17 Larchmere Close';
const CLOCK = () => new Date('2026-08-17T09:00:00.000Z');
const seed = drillSeed();
let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'mem-purge-drill-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Every file of a project's log directory and its bytes. */
function files(projectDir: string): Map<string, string> {
  return new Map(
    readdirSync(projectDir)
      .sort()
      .map((name) => [name, readFileSync(join(projectDir, name)).toString('base64')]),
  );
}

/** A log of three or more segments, the secret in the first, a middle and the newest. */
async function seedLog(dir: string, random: () => number): Promise<void> {
  const log = new EventLog({ dir, segmentBytes: 1500, now: CLOCK });
  for (let n = 0; n < 24; n += 1) {
    const pad = 'x'.repeat(Math.floor(random() * 120));
    const reason = n % 7 === 0 || n === 23 ? `${n} told by ${SECRET} ${pad}` : `${n} ${pad}`;
    await log.append('drill', [{ type: 'tombstone', target: 'a'.repeat(64), reason }], {
      kind: 'test',
    });
  }
}

/** Runs the purge child until it stops at the `nth` `step` (blocked, holding the lock); `kill` SIGKILLs it. */
function stopAt(dir: string, step: PurgeStep, nth: number): Promise<{ kill: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, dir, 'drill', SECRET, step, String(nth)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    const closed = new Promise<void>((done, fail) =>
      proc.on('close', (code, signal) =>
        signal === 'SIGKILL'
          ? done()
          : fail(
              new Error(`purge child exited with ${code}: ${err} (replay: MEM_DRILL_SEED=${seed})`),
            ),
      ),
    );
    closed.catch(reject);
    const kill = () => {
      proc.kill('SIGKILL');
      return closed;
    };
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => {
      if (chunk.includes(`stopped ${step}`)) resolve({ kill });
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    proc.on('error', reject);
  });
}

async function killAt(dir: string, step: PurgeStep, nth: number): Promise<void> {
  await (await stopAt(dir, step, nth)).kill();
}

/** A read's events as their serialised lines. */
async function readAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const { event } of new EventLog({ dir }).read('drill'))
    out.push(JSON.stringify(event));
  return out;
}

describe('the purge crash drill', () => {
  it('SIGKILLed at staged, committed, renamed and done, the next verify settles it to the old or the purged log byte for byte', async () => {
    assertBuilt();
    const random = seededRandom(seed);
    const steps: [PurgeStep, 'old' | 'purged'][] = [
      ['staged', 'old'],
      ['committed', 'purged'],
      ['renamed', 'purged'],
      ['done', 'purged'],
    ];
    for (const [step, expected] of steps) {
      const at = join(root, step);
      const dir = join(at, 'log');
      await seedLog(dir, random);
      const reference = join(root, `${step}-reference`, 'log');
      cpSync(dir, reference, { recursive: true });
      const purged = await new EventLog({ dir: reference, now: CLOCK }).purge(
        'drill',
        { text: SECRET, reason: 'drill' },
        { kind: 'test' },
      );
      expect(purged.segments.length, `replay: MEM_DRILL_SEED=${seed}`).toBeGreaterThanOrEqual(3);
      const old = files(join(dir, 'drill'));
      // Staged and renamed happen once per rewritten segment: stop at a seeded one of them.
      const nth =
        step === 'staged' || step === 'renamed'
          ? 1 + Math.floor(random() * purged.segments.length)
          : 1;
      await killAt(dir, step, nth);

      const verified = memProcess(['--root', at, 'verify', '--json']);
      const context = `${step} #${nth} (replay: MEM_DRILL_SEED=${seed})`;
      expect(verified.code, `${context}: ${verified.stdout}${verified.stderr}`).toBe(0);
      const settled = files(join(dir, 'drill'));
      expect(settled, context).toEqual(expected === 'old' ? old : files(join(reference, 'drill')));

      const log = new EventLog({ dir });
      await log.append('drill', [{ type: 'tombstone', target: 'a'.repeat(64), reason: 'after' }], {
        kind: 'test',
      });
      expect((await log.verify('drill')).ok, context).toBe(true);
    }
  }, 300_000);

  it('a read during the rename window sees the purged log, never old and new segments mixed', async () => {
    assertBuilt();
    const dir = join(root, 'log');
    await seedLog(dir, seededRandom(seed));
    const reference = join(root, 'reference', 'log');
    cpSync(dir, reference, { recursive: true });
    await new EventLog({ dir: reference, now: CLOCK }).purge(
      'drill',
      { text: SECRET, reason: 'drill' },
      { kind: 'test' },
    );
    // The purger has renamed its first rewritten segment and holds the lock; the rest are staged.
    const purger = await stopAt(dir, 'renamed', 1);
    // Whatever the reader waits on, what it reads must be one whole log (the append case below
    // shows the renamed first segment is locked too).
    const read = readAll(dir);
    read.catch(() => undefined);
    await new Promise((wait) => setTimeout(wait, 500));
    await purger.kill();
    const events = await read;
    expect(events).toEqual(await readAll(reference));
    expect(events.join('\n')).not.toContain(SECRET);
  }, 120_000);

  it('an append from another process during the rename window waits for the purge, then follows its purged event', async () => {
    assertBuilt();
    const dir = join(root, 'log');
    await seedLog(dir, seededRandom(seed));
    // The purger has renamed its first rewritten segment (000001.jsonl, where the project's lock
    // lives) into place and is blocked there, the other rewritten segments still staged.
    const purger = await stopAt(dir, 'renamed', 1);
    const log = new EventLog({ dir, now: CLOCK });
    const append = log.append(
      'drill',
      [{ type: 'tombstone', target: 'a'.repeat(64), reason: 'during the purge' }],
      { kind: 'test' },
    );
    append.catch(() => undefined);
    const early = await Promise.race([
      append.then(() => 'appended'),
      new Promise((wait) => setTimeout(() => wait('waiting'), 1500)),
    ]);
    // An append that got the lock here would settle a purge that is still running under it.
    expect(early, `replay: MEM_DRILL_SEED=${seed}`).toBe('waiting');
    await purger.kill();
    await append;
    expect((await log.verify('drill')).ok).toBe(true);
    const types = (await readAll(dir)).map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types.slice(-2)).toEqual(['purged', 'tombstone']);
  }, 120_000);
});
