// The crash drill, shared by packages/log's int test and test/bench/log.bench.mjs.
// Children append in a loop; the parent SIGKILLs them at random moments and records every
// acknowledged id. Afterwards the log must hold every acknowledged id exactly once.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const child = join(dirname(fileURLToPath(import.meta.url)), 'append-child.mjs');

/**
 * Runs one child, SIGKILLs it `killAfterMs` after its `killAfterAcks`-th ack (or after `ready`
 * when 0), and returns its acked ids. Counting acks first means a starved machine still kills
 * children mid-append rather than while they load.
 */
function runOnce({ dir, project, tag, killAfterAcks, killAfterMs, maxBatch, maxPad, env }) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, dir, project, tag, 'forever', String(maxBatch), String(maxPad)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
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
      if (signal !== 'SIGKILL') return reject(new Error(`child ${tag} exited with ${code ?? signal}: ${err}`));
      // Only complete lines count: a line cut by the kill was never fully acknowledged.
      const complete = out.slice(0, out.lastIndexOf('\n') + 1);
      const acked = complete.split('\n').filter((line) => line.startsWith('ack ')).flatMap((line) => line.slice(4).split(' '));
      resolve(acked);
    });
  });
}

/**
 * Kills `kills` children, `parallel` at a time, each after 0..maxAcks acknowledged appends and
 * then a random 0..maxDelayMs.
 * Returns the set of acknowledged ids (an id acked twice is a bug in the drill itself).
 */
export async function runCrashDrill({ dir, project, kills, parallel = 2, maxAcks = 3, maxDelayMs = 20, maxBatch = 8, maxPad = 20000, env = {} }) {
  const acked = new Set();
  let started = 0;
  const lane = async (laneNo) => {
    while (started < kills) {
      const run = started++;
      const killAfterAcks = Math.floor(Math.random() * (maxAcks + 1));
      const ids = await runOnce({ dir, project, tag: `c${run}l${laneNo}`, killAfterAcks, killAfterMs: Math.random() * maxDelayMs, maxBatch, maxPad, env });
      for (const id of ids) acked.add(id);
    }
  };
  await Promise.all(Array.from({ length: parallel }, (_, laneNo) => lane(laneNo)));
  return acked;
}

/** Runs `processes` children that each append `appends` single events; resolves when all exit 0. */
export function runWriters({ dir, project, processes, appends, env = {} }) {
  return Promise.all(
    Array.from(
      { length: processes },
      (_, n) =>
        new Promise((resolve, reject) => {
          const proc = spawn(process.execPath, [child, dir, project, `w${n}`, String(appends)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
          let err = '';
          let acks = 0;
          proc.stdout.setEncoding('utf8');
          proc.stdout.on('data', (chunk) => (acks += chunk.split('ack ').length - 1));
          proc.stderr.on('data', (chunk) => (err += chunk));
          proc.on('error', reject);
          proc.on('close', (code) => (code === 0 ? resolve(acks) : reject(new Error(`writer w${n} exited with ${code}: ${err}`))));
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
