// Child process for the purge crash drill (test/purge-drill.int.spec.ts); not a test file. It
// imports the BUILT log: run `npx tsc -b` first.
//
//   node purge-child.mjs <logDir> <project> <text> <step> <nth>
//
// Purges <text> with a fixed clock (so an uninterrupted purge of a copy is the byte-for-byte
// reference) and, the <nth> time the purge reaches <step>, prints `stopped <step> <nth>` and
// blocks, so the parent can SIGKILL it exactly there. A purge that never reaches it exits 2.
import { writeSync } from 'node:fs';
import { EventLog } from '../dist/index.js';

const [dir, project, text, stopAt, nth] = process.argv.slice(2);
const log = new EventLog({ dir, now: () => new Date('2026-08-17T09:00:00.000Z') });
let seen = 0;
const onStep = (step) => {
  if (step !== stopAt || ++seen !== Number(nth)) return;
  writeSync(1, `stopped ${step} ${seen}\n`);
  // Blocks the only thread: nothing after this step runs before the parent's SIGKILL lands.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
await log.purge(project, { text, reason: 'drill', onStep }, { kind: 'test' });
writeSync(2, `the purge never reached ${stopAt} #${nth}\n`);
process.exit(2);
