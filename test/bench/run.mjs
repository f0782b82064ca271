// Runs every test/bench/*.bench.mjs in its own process, one after another, and prints
// their figures. Benchmarks report; they never fail the build (exit code is always 0
// unless a bench crashes). Pass names to run a subset: `npm run bench -- log rebuild`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

let crashed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--expose-gc', join(here, file)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    crashed += 1;
    console.log(`!!! ${file} exited with ${result.status ?? result.signal}`);
  }
}
process.exitCode = crashed > 0 ? 1 : 0;
