import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mint, registryAt, seedIdentity, tempDataRoot } from './api/support.js';

/*
 * `mem` installed from the checkout the way the README's quick start says, and run from
 * directories outside it, where agent runtimes start MCP servers (issue 9, item 18). npm runs
 * offline throughout: the install links this checkout and needs no registry.
 */
const repo = join(import.meta.dirname, '..');
const version = (
  JSON.parse(readFileSync(join(repo, 'packages', 'cli', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
let prefix: string;
let elsewhere: string;

/** The environment of a shell with the install's bin on PATH, npm kept off the network. */
function shellEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${join(prefix, 'bin')}${delimiter}${process.env['PATH'] ?? ''}`,
    HOME: elsewhere,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    cwd: options.cwd ?? elsewhere,
    env: options.env ?? shellEnv(),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, error: result.error };
}

/** The README's quick-start install line, as a user pastes it in the checkout. */
function readmeInstallCommand(): string {
  const line = readme.split('\n').find((l) => /^npm install -g \S+/.test(l));
  expect(line, 'the quick start names an `npm install -g` line').toBeDefined();
  return line!;
}

/** The `.mcp.json` example of the README. */
function readmeMcpServer(): { command: string; args: string[]; env: Record<string, string> } {
  const block = /```json\n(\{[^\n]*"mcpServers"[^\n]*\})\n```/.exec(readme);
  expect(block, 'the README has a one-line .mcp.json example').not.toBeNull();
  return (
    JSON.parse(block![1]!) as {
      mcpServers: { mem: { command: string; args: string[]; env: Record<string, string> } };
    }
  ).mcpServers.mem;
}

beforeAll(() => {
  prefix = mkdtempSync(join(tmpdir(), 'mem-prefix-'));
  elsewhere = mkdtempSync(join(tmpdir(), 'mem-elsewhere-'));
  // The README's line, with the prefix a test may write to (a user's is npm's global one).
  const [npm, ...args] = readmeInstallCommand().split(' ');
  const installed = run(npm!, [...args, '--prefix', prefix, '--no-audit', '--no-fund'], {
    cwd: repo,
  });
  expect(installed, installed.stderr).toMatchObject({ code: 0 });
  expect(existsSync(join(prefix, 'bin', 'mem'))).toBe(true);
}, 120_000);

afterAll(() => {
  rmSync(prefix, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('mem installed from the checkout', () => {
  it('runs from a directory outside the checkout: --version, and a real command on --root', () => {
    expect(run('mem', ['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const root = join(elsewhere, 'data');
    expect(run('mem', ['--root', root, 'project', 'add', 'demo'])).toMatchObject({
      code: 0,
      stdout: 'added project demo\n',
    });
    expect(run('mem', ['--root', root, 'project', 'list'])).toMatchObject({
      code: 0,
      stdout: 'demo\n',
    });
  }, 120_000);

  it('finds its own files through the link even when node keeps symlinked paths', () => {
    const preserving = shellEnv({ NODE_OPTIONS: '--preserve-symlinks --preserve-symlinks-main' });
    const result = run('mem', ['--version'], { env: preserving });
    expect(result, result.stderr).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("the README's .mcp.json starts a working MCP server from another directory", async () => {
    const { root, cleanup } = tempDataRoot(['demo']);
    try {
      const registry = await registryAt(root, { runJobs: false });
      await seedIdentity(registry, { me: ['demo'] });
      const token = await mint(registry, { principal: 'me', projects: ['demo'] });
      await registry.close();

      const server = readmeMcpServer();
      const args = server.args.map((arg) => (arg === '/path/to/data-root' ? root : arg));
      expect(args).toContain(root);
      const transport = new StdioClientTransport({
        command: server.command,
        args,
        cwd: elsewhere,
        env: { ...shellEnv(), ...server.env, MEM_TOKEN: token.secret },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'readme-mcp-config', version: '1.0.0' });
      await client.connect(transport);
      try {
        const listed = await client.callTool({ name: 'list_projects', arguments: {} });
        expect(listed.isError).toBeFalsy();
        expect(JSON.parse((listed as { content: { text: string }[] }).content[0]!.text)).toEqual([
          { name: 'demo', synthesis: null },
        ]);
      } finally {
        await client.close();
      }
    } finally {
      cleanup();
    }
  }, 120_000);
});

describe('npx mem inside the checkout', () => {
  it("still runs the checkout's mem, offline (the quick start uses it)", () => {
    expect(
      run('npx', ['mem', '--version'], {
        cwd: repo,
        env: { PATH: process.env['PATH'] ?? '', HOME: elsewhere, npm_config_offline: 'true' },
      }),
    ).toMatchObject({ code: 0, stdout: `${version}\n` });
  });
});
