// Named figures: each bench reports what it measured under a stable name, so runs can be
// compared by name (`npm run bench -- --json` prints them all as one object). The runner
// passes a file per bench process in BENCH_FIGURES; a bench run on its own just prints.
import { appendFileSync } from 'node:fs';

/**
 * Records one figure. `value` must be a finite number: a bench that could not measure
 * something reports nothing under that name rather than a placeholder.
 */
export function figure(name, value) {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`bad figure name ${JSON.stringify(name)}`);
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`figure ${name} is not a finite number: ${value}`);
  }
  const file = process.env.BENCH_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify({ name, value })}\n`);
}
