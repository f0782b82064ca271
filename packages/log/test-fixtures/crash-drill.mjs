// The crash drill, shared by packages/log's int test and test/bench/log.bench.mjs.
// Children append in a loop; the parent SIGKILLs them at random moments and records every
// acknowledged id. Afterwards the log must hold every acknowledged id exactly once.
// Every random choice (kill moments, batch sizes, paddings) comes from one seed, so a failing
// run can be replayed; only the OS's scheduling of the kills stays outside it.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemError, seededRandom } from '@mem/core';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..');
const child = join(here, 'append-child.mjs');
// What the children import: the built log and core (tests themselves run the sources).
const CHILD_ENTRIES = [
  join(here, '..', 'dist', 'index.js'),
  join(repoRoot, 'packages', 'core', 'dist', 'index.js'),
];
const SEED_LIMIT = 2 ** 32;

/**
 * Throws NOT_FOUND naming the first missing build output the children need. The drill does not
 * build (that belongs to `npm test`'s `tsc -b`), so a missing dist must say so, not fail in a child.
 */
export function assertBuilt(entries = CHILD_ENTRIES) {
  for (const path of entries) {
    if (!existsSync(path))
      throw new MemError(
        'NOT_FOUND',
        `${relative(repoRoot, path)} is missing: the drill's child processes run the built packages; run \`npx tsc -b\` first (npm test does)`,
        { path },
      );
  }
}

/** The drill's seed: MEM_DRILL_SEED (an integer 0..2^32-1) to replay a run, else a fresh one. */
export function drillSeed(env = process.env) {
  const value = env.MEM_DRILL_SEED;
  if (value === undefined) return randomInt(SEED_LIMIT);
  if (!/^\d+$/.test(value) || Number(value) >= SEED_LIMIT) {
    throw new MemError(
      'CONFIG_INVALID',
      `MEM_DRILL_SEED must be an integer from 0 to ${SEED_LIMIT - 1}, got ${JSON.stringify(value)}`,
      { variable: 'MEM_DRILL_SEED', value },
    );
  }
  return Number(value);
}

/**
 * Per run, in run order: acks to wait for before arming the kill, the delay after that, and the
 * child's own seed. Drawn up front, so which lane takes a run does not change what it does.
 */
export function drillPlan({ seed, kills, maxAcks = 3, maxDelayMs = 20 }) {
  const random = seededRandom(seed);
  return Array.from({ length: kills }, () => ({
    killAfterAcks: Math.floor(random() * (maxAcks + 1)),
    killAfterMs: random() * maxDelayMs,
    childSeed: Math.floor(random() * SEED_LIMIT),
  }));
}

/**
 * Runs one child, SIGKILLs it `killAfterMs` after its `killAfterAcks`-th ack (or after `ready`
 * when 0), and returns its acked ids. Counting acks first means a starved machine still kills
 * children mid-append rather than while they load.
 */
function runOnce({
  dir,
  project,
  tag,
  killAfterAcks,
  killAfterMs,
  childSeed,
  maxBatch,
  maxPad,
  env,
}) {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [child, dir, project, tag, 'forever', String(maxBatch), String(maxPad), String(childSeed)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      },
    );
    let out = '';
    let err = '';
    let timer;
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const armed = out.includes('ready\n') && out.split('\nack ').length - 1 >= killAfterAcks;
      if (timer === undefined && armed) timer = setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    });
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.on('error', reject);
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL')
        return reject(new Error(`child ${tag} exited with ${code ?? signal}: ${err}`));
      // Only complete lines count: a line cut by the kill was never fully acknowledged.
      const complete = out.slice(0, out.lastIndexOf('\n') + 1);
      const acked = complete
        .split('\n')
        .filter((line) => line.startsWith('ack '))
        .flatMap((line) => line.slice(4).split(' '));
      resolve(acked);
    });
  });
}

/**
 * Kills `kills` children, `parallel` at a time, each after 0..maxAcks acknowledged appends and
 * then a random 0..maxDelayMs, all drawn from `seed` (see drillPlan).
 * Returns the set of acknowledged ids (an id acked twice is a bug in the drill itself).
 */
export async function runCrashDrill({
  dir,
  project,
  seed,
  kills,
  parallel = 2,
  maxAcks = 3,
  maxDelayMs = 20,
  maxBatch = 8,
  maxPad = 20000,
  env = {},
}) {
  assertBuilt();
  const plan = drillPlan({ seed, kills, maxAcks, maxDelayMs });
  const acked = new Set();
  let started = 0;
  const lane = async (laneNo) => {
    while (started < kills) {
      const run = started++;
      const ids = await runOnce({
        dir,
        project,
        tag: `c${run}l${laneNo}`,
        ...plan[run],
        maxBatch,
        maxPad,
        env,
      });
      for (const id of ids) acked.add(id);
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, (_, laneNo) => lane(laneNo)));
  } catch (error) {
    // A child that died otherwise than by our SIGKILL: say how to replay the run that found it.
    throw new Error(`${error.message} (replay: MEM_DRILL_SEED=${seed})`, { cause: error });
  }
  return acked;
}

/** Runs `processes` children that each append `appends` single events; resolves when all exit 0. */
export function runWriters({ dir, project, processes, appends, env = {} }) {
  assertBuilt();
  return Promise.all(
    Array.from(
      { length: processes },
      (_, n) =>
        new Promise((resolve, reject) => {
          const proc = spawn(process.execPath, [child, dir, project, `w${n}`, String(appends)], {
            stdio: ['ignore', 'pipe', 'pipe'],
            env: { ...process.env, ...env },
          });
          let err = '';
          let acks = 0;
          proc.stdout.setEncoding('utf8');
          proc.stdout.on('data', (chunk) => (acks += chunk.split('ack ').length - 1));
          proc.stderr.on('data', (chunk) => (err += chunk));
          proc.on('error', reject);
          proc.on('close', (code) =>
            code === 0
              ? resolve(acks)
              : reject(new Error(`writer w${n} exited with ${code}: ${err}`)),
          );
        }),
    ),
  );
}

/** Reads back every id in the log: a map id → number of times it occurs, and the recovery count. */
export async function idsInLog(log, project) {
  const counts = new Map();
  let recoveries = 0;
  let events = 0;
  for await (const { event } of log.read(project)) {
    events += 1;
    if (event.type === 'recovery') recoveries += 1;
    if (event.type !== 'tombstone') continue;
    const id = event.reason.split(' ')[0];
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return { counts, recoveries, events };
}
