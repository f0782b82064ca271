// Runs every test/bench/*.bench.mjs in its own process, one after another, and prints
// their figures. Benchmarks report; they never fail the build (exit code is always 0
// unless a bench crashes). Pass names to run a subset: `npm run bench -- log rebuild`.
// `--json`: the benches' own output goes to stderr and stdout is one JSON object of every
// named figure (test/bench/figures.mjs), with `crashed` listing the benches that exited non-zero.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const wanted = args.filter((a) => a !== '--json');
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

const scratch = mkdtempSync(join(tmpdir(), 'mem-bench-figures-'));
const figures = {};
const crashed = [];
const say = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
try {
  for (const file of benches) {
    say(`\n=== ${file} ===`);
    const out = join(scratch, `${file}.jsonl`);
    const result = spawnSync(process.execPath, ['--expose-gc', join(here, file)], {
      stdio: json ? ['ignore', 2, 2] : 'inherit',
      env: { ...process.env, BENCH_FIGURES: out },
    });
    if (result.status !== 0) {
      crashed.push(file);
      say(`!!! ${file} exited with ${result.status ?? result.signal}`);
    }
    if (existsSync(out)) {
      for (const line of readFileSync(out, 'utf8').split('\n').filter(Boolean)) {
        const { name, value } = JSON.parse(line);
        figures[name] = value;
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (json) {
  process.stdout.write(`${JSON.stringify({ ...figures, crashed }, null, 2)}\n`);
} else {
  say('\n=== figures ===');
  for (const [name, value] of Object.entries(figures)) say(`  ${name.padEnd(34)} ${value}`);
}
process.exitCode = crashed.length > 0 ? 1 : 0;
