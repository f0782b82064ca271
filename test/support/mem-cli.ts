// Test support: `mem` run two ways. In process through the CLI's entry (sources, an injected
// CliIO) for cases about arguments and output; as the built bin in a real process for cases
// about processes (exit status of the installed bin, stdin piping, signals, locks).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '@mem/cli';

/** What one `mem` run left: its exit code and everything it wrote. */
export interface MemRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface MemRunOptions {
  /** Written to the command's stdin (default: an empty stdin). */
  input?: string;
  /** Variables on top of the hermetic environment. */
  env?: Record<string, string>;
  cwd?: string;
}

/** The built executable the real-process cases run (`npm test` builds before vitest). */
export const memBin = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'bin', 'mem.js');

/**
 * The environment a run sees: PATH, and the run's PGlite template. Why the template: without
 * it every fresh root the command opens runs initdb (seconds each), the cost the int tier's
 * global setup exists to pay once.
 */
export function hermeticEnv(extra: Record<string, string> = {}): Record<string, string> {
  const template = process.env['MEM_TEST_PGLITE_TEMPLATE'];
  return {
    PATH: process.env['PATH'] ?? '',
    ...(template ? { MEM_TEST_PGLITE_TEMPLATE: template } : {}),
    ...extra,
  };
}

/** Runs `mem <args>` in this process, as `main` runs for the bin, with stdout and stderr captured. */
export async function memInProcess(
  args: readonly string[],
  options: MemRunOptions = {},
): Promise<MemRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const stdin = Readable.from(
    options.input === undefined ? [] : [Buffer.from(options.input, 'utf8')],
  );
  const code = await main(['node', 'mem', ...args], {
    stdin,
    stdout,
    stderr,
    env: hermeticEnv(options.env),
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout: out, stderr: err };
}

/** `mem log append --project demo --file FILE` into `root`, in process; fails the test unless it exits 0. */
export async function appendedInProcess(root: string, file: string): Promise<void> {
  const appended = await memInProcess([
    '--root',
    root,
    'log',
    'append',
    '--project',
    'demo',
    '--file',
    file,
  ]);
  if (appended.code !== 0)
    throw new Error(`mem log append exited ${appended.code}: ${appended.stderr}`);
}

/** Runs the built `mem <args>` in a real child process with the same hermetic environment. */
export function memProcess(args: readonly string[], options: MemRunOptions = {}): MemRun {
  const result = spawnSync(process.execPath, [memBin, ...args], {
    input: options.input,
    encoding: 'utf8',
    env: hermeticEnv(options.env),
    cwd: options.cwd,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
