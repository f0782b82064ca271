// Child process for the log's crash and concurrency drills; not a test file (vitest collects
// only src/**/*.spec.ts). It imports the BUILT packages: run `npx tsc -b` first.
//
//   node append-child.mjs <logDir> <project> <tag> <appends|forever> [maxBatch] [maxPad] [seed]
//
// Batch sizes and paddings come from `seed` (core's seededRandom), so a drill run replays.
// Appends tombstones whose reason starts with a unique id `<tag>-<n>`, and prints
// `ack <id> <id> ...` to stdout only after append() resolved (after fsync). A parent that
// SIGKILLs this process may therefore trust every complete `ack` line it received.
import { writeSync } from 'node:fs';
import { seededRandom } from '@mem/core';
import { EventLog } from '../dist/index.js';

const [dir, project, tag, count = 'forever', maxBatch = '1', maxPad = '0', seed = '0'] =
  process.argv.slice(2);
const random = seededRandom(Number(seed));
const log = new EventLog({
  dir,
  segmentBytes: Number(process.env.MEM_LOG_SEGMENT_BYTES ?? 64 * 1024 * 1024),
});
const limit = count === 'forever' ? Infinity : Number(count);
const target = 'f'.repeat(64);
const writer = { kind: 'test', principal: tag };

/** The next batch: 1..maxBatch tombstones, and their ids. */
function nextBatch(n) {
  const size = 1 + Math.floor(random() * Number(maxBatch));
  const ids = [];
  const payloads = [];
  for (let i = 0; i < size && n + i < limit; i += 1) {
    const id = `${tag}-${n + i}`;
    // Occasional padding makes a batch span many pages, so a kill can land inside write().
    const pad = random() < 0.2 ? 'x'.repeat(Math.floor(random() * Number(maxPad))) : '';
    ids.push(id);
    payloads.push({ type: 'tombstone', target, reason: pad ? `${id} ${pad}` : id });
  }
  return { ids, payloads };
}

writeSync(1, 'ready\n');
for (let n = 0; n < limit;) {
  // Two batches at once, so the drills also kill group commits (both share one fsync).
  const batches = [];
  for (let k = 0; k < 2 && n < limit; k += 1) {
    const batch = nextBatch(n);
    n += batch.ids.length;
    batches.push(batch);
  }
  await Promise.all(
    batches.map(async ({ ids, payloads }) => {
      await log.append(project, payloads, writer);
      // writeSync: the ack is in the pipe before the next append starts, so no ack waits in a buffer.
      writeSync(1, `ack ${ids.join(' ')}\n`);
    }),
  );
}
