// Adapter throughput: MB/s over the shipped transcripts, and (with --big N) over a generated
// N-MB Claude transcript with peak RSS. Run after `npx tsc -b packages/sources`:
//   node packages/sources/bench/throughput.mjs [--rounds 5] [--big 1024]
// Prints figures; never fails.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceForPath } from '../dist/index.js';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const rounds = flag('rounds', 5);
const bigMb = flag('big', 0);
const transcripts = fileURLToPath(new URL('../../../test/fixtures/transcripts/', import.meta.url));

async function drain(source) {
  let records = 0;
  for await (const _ of source) records += 1;
  return records;
}

async function shipped() {
  const inputs = [];
  let bytes = 0;
  for (const kind of ['claude', 'pi']) {
    const dir = join(transcripts, kind);
    inputs.push([kind, dir]);
    for (const f of await readdir(dir))
      if (f.endsWith('.jsonl')) bytes += (await stat(join(dir, f))).size;
  }
  const rates = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    let records = 0;
    for (const [kind, dir] of inputs) records += await drain(sourceForPath(dir, kind));
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    rates.push(bytes / 1e6 / s);
    console.log(
      `shipped round ${r + 1}: ${(bytes / 1e6).toFixed(2)} MB, ${records} records, ${(s * 1000).toFixed(0)} ms, ${(bytes / 1e6 / s).toFixed(1)} MB/s`,
    );
  }
  const sorted = [...rates].sort((a, b) => a - b);
  console.log(
    `shipped median: ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} MB/s (first round includes JIT warm-up)`,
  );
}

async function big(mb) {
  const dir = await mkdtemp(join(tmpdir(), 'mem-sources-bench-'));
  const path = join(dir, 'big.jsonl');
  const lines = (await readFile(join(transcripts, 'claude', 'spotter-subagent.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean);
  const out = createWriteStream(path);
  let written = 0;
  while (written < mb * 1e6) {
    for (const line of lines) {
      // Fresh uuids, so dedup does not skip the copies.
      const fresh = line.replace(/"uuid":"[0-9a-f-]{36}"/u, `"uuid":"${randomUUID()}"`);
      if (!out.write(`${fresh}\n`)) await new Promise((resolve) => out.once('drain', resolve));
      written += Buffer.byteLength(fresh) + 1;
    }
  }
  await new Promise((resolve) => out.end(resolve));
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = process.hrtime.bigint();
  const records = await drain(sourceForPath(path, 'claude'));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `generated: ${(written / 1e6).toFixed(0)} MB, ${records} records, ${s.toFixed(1)} s, ${(written / 1e6 / s).toFixed(1)} MB/s, peak RSS ${(peak / 1e6).toFixed(0)} MB`,
  );
  await rm(dir, { recursive: true, force: true });
}

await shipped();
if (bigMb > 0) await big(bigMb);
