import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * The embedded Postgres serves one process. Real processes open one PGlite directory through
 * the built registry (packages/projector-pgvector/dist, which `tsc -b` builds): the second is
 * refused while the first holds it, and gets it once the first is SIGKILLed, whatever a file
 * beside the directory says about who held it.
 */
const registry = join(import.meta.dirname, '..', '..', 'dist', 'backend', 'pglite-registry.js');
const holdScript = `const { acquirePglite } = await import(${JSON.stringify(registry)});
await acquirePglite(process.argv[1]);
process.stdout.write('held\\n');
setInterval(() => {}, 1000);`;
const tryScript = `const { acquirePglite } = await import(${JSON.stringify(registry)});
try {
  const { release } = await acquirePglite(process.argv[1]);
  await release();
  process.stdout.write(JSON.stringify({ opened: true }));
} catch (error) {
  process.stdout.write(JSON.stringify({ code: error.code, details: error.details }));
}`;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function tryOpen(dir: string): Promise<{ opened?: true; code?: string; details?: unknown }> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--input-type=module',
    '-e',
    tryScript,
    dir,
  ]);
  return JSON.parse(stdout) as { opened?: true; code?: string };
}

describe('the PGlite directory lock (real processes)', () => {
  it('refuses a second process with CONFLICT while the first holds the directory, and lets it in after the first is SIGKILLed', async () => {
    expect(existsSync(registry), `${registry}: run npx tsc -b`).toBe(true);
    const parent = mkdtempSync(join(tmpdir(), 'mem-pg-lock-'));
    dirs.push(parent);
    const dir = join(parent, 'pg');
    const holder = spawn(process.execPath, ['--input-type=module', '-e', holdScript, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
        holder.once('exit', (code) =>
          reject(new Error(`holder exited (${code}) before it held the directory`)),
        );
      });
      expect(await tryOpen(dir)).toMatchObject({ code: 'CONFLICT', details: { dir } });
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
    // Trigger: a SIGKILLed holder leaves whatever it wrote beside the directory. Why: its pid is
    // free for reuse, so a pid file can name a live, unrelated process (this one stands for
    // it). Outcome: a kernel lock died with its holder; nothing in the file can keep others out.
    if (existsSync(`${dir}.lock`)) writeFileSync(`${dir}.lock`, `${process.pid}\n`);
    expect(await tryOpen(dir)).toEqual({ opened: true });
  }, 120_000);
});
