import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MemError } from '@mem/core';

/** This package's own executable: every attack is the built `mem` in a real process. */
const BIN = fileURLToPath(new URL('../../../bin/mem.js', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The error code a `--json` run printed on stderr, or null when it printed none. */
export function errorCode(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : null;
  } catch {
    return null;
  }
}

/**
 * `mem` against one scratch data root. The children see only PATH and the PGlite template
 * (when the caller has one), so a user's MEM_ROOT or DATABASE_URL never points an attack at
 * real data.
 */
export class ScratchMem {
  constructor(
    readonly root: string,
    private readonly env: Record<string, string | undefined>,
  ) {}

  private childEnv(extra: Record<string, string> = {}): Record<string, string> {
    const template = this.env['MEM_TEST_PGLITE_TEMPLATE'];
    return {
      PATH: this.env['PATH'] ?? '',
      ...(template ? { MEM_TEST_PGLITE_TEMPLATE: template } : {}),
      ...extra,
    };
  }

  run(args: readonly string[], input?: string): Run {
    const result = spawnSync(process.execPath, [BIN, '--root', this.root, ...args], {
      input,
      encoding: 'utf8',
      env: this.childEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** Runs and insists on success: a setup step that fails makes the scorecard meaningless. */
  must(args: readonly string[], input?: string): string {
    const result = this.run(args, input);
    if (result.code !== 0)
      throw new MemError(
        'IO_FAILED',
        `eval forget: setup step mem ${args.join(' ')} exited ${result.code}: ${result.stderr.trim()}`,
        { command: args.join(' '), exit_code: result.code },
      );
    return result.stdout;
  }

  /** The project's log, every segment in order, as text. */
  logText(project: string): string {
    const dir = join(this.root, 'log', project);
    return readdirSync(dir)
      .sort()
      .map((segment) => readFileSync(join(dir, segment), 'utf8'))
      .join('');
  }

  events(project: string): Record<string, unknown>[] {
    return this.logText(project)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** `mem serve --port 0`, resolved with its URL once it listens, and a stop that waits for exit. */
  async serve(): Promise<{ url: string; stop: () => Promise<void> }> {
    const child = spawn(
      process.execPath,
      [BIN, '--root', this.root, 'serve', '--port', '0', '--no-jobs', '--quiet'],
      { env: this.childEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (data: Buffer) => {
        stderr += data.toString('utf8');
        const found = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      child.once('exit', (code) =>
        reject(new MemError('IO_FAILED', `eval forget: mem serve exited ${code}: ${stderr}`, {})),
      );
    });
    return { url, stop: () => stopChild(child) };
  }

  /** One MCP `tools/call` over `mem mcp`'s stdio (newline-delimited JSON-RPC), after the handshake. */
  async mcpCall(token: string, tool: string, args: Record<string, unknown>): Promise<unknown> {
    const child = spawn(process.execPath, [BIN, 'mcp', '--no-jobs'], {
      env: this.childEnv({ MEM_ROOT: this.root, MEM_TOKEN: token }),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const answers = new Map<number, (message: unknown) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id === 'number') answers.get(message.id)?.(message);
    });
    const request = (id: number, method: string, params: unknown) =>
      new Promise<unknown>((resolve) => {
        answers.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    try {
      await request(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'mem-eval-forget', version: '1' },
      });
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
      );
      return await request(2, 'tools/call', { name: tool, arguments: args });
    } finally {
      child.stdin.end();
      await stopChild(child);
    }
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
