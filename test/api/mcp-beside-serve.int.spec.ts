import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lockPgliteDir, pgliteLockPath } from '@mem/engine';
import { createMcpServer } from '@mem/mcp';
import { heldVectorsRoute } from '../../packages/cli/src/mcp-route.js';
import { openCliRegistry } from '../../packages/cli/src/open-registry.js';
import { pgliteHeld, pgliteHolders } from '../support/pglite-lock.js';
import { hermeticEnv, memBin, memProcess } from '../support/mem-cli.js';
import { call, tempDataRoot, until } from './support.js';

/*
 * An agent's `mem mcp` (stdio) beside a person's `mem serve` on one data root (stop 29's
 * finding): the server holds the embedded PGlite, so `mem mcp` could only answer on keywords.
 * Now its reads of the vectors go through the server's warm socket, as the CLI's do, and answer
 * as the HTTP API does; its writes stay its own; and when the server dies under it, the next
 * call opens the vector side itself, in bounded time. All real processes.
 */
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'extraction-runs.jsonl');
const QUESTION = 'why did the build fail?';

/** Run in reverse: the MCP client closes, then the server is killed, then its root removed. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

function mem(root: string, args: readonly string[], input?: string): string {
  const run = memProcess(['--root', root, ...args], input === undefined ? {} : { input });
  expect(run.code, `mem ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
}

const afterAllCleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of afterAllCleanups.splice(0)) c();
});

/** A root with the fixture's memories in `demo`, its projections (PGlite too) built, and a token reaching demo. */
let seed: { root: string; token: string };
beforeAll(() => {
  const { root, cleanup } = tempDataRoot(['demo']);
  afterAllCleanups.push(cleanup);
  mem(root, ['principal', 'add', 'alice']);
  mem(root, ['project', 'add', 'demo']);
  mem(root, ['project', 'add-member', 'demo', 'alice']);
  mem(root, ['log', 'append', '--project', 'demo'], readFileSync(FIXTURE, 'utf8'));
  // The first query catches every projection up, the embedded PGlite included.
  mem(root, ['query', QUESTION, '--project', 'demo', '--json']);
  expect(existsSync(join(root, '.mem', 'pg', 'PG_VERSION'))).toBe(true);
  const minted = mem(root, [
    'token',
    'mint',
    '--principal',
    'alice',
    '--projects',
    'demo',
    '--label',
    'agent',
    '--json',
  ]);
  seed = { root, token: (JSON.parse(minted) as { secret: string }).secret };
}, 300_000);

/** A copy of the seeded root (nothing holds it between tests): each case starts from the same state. */
function seededRoot(): { root: string; token: string } {
  const { root, cleanup } = tempDataRoot();
  cleanups.push(cleanup);
  cpSync(seed.root, root, { recursive: true });
  return { root, token: seed.token };
}

/** `mem serve` on `root`, once both its HTTP port and its warm socket listen. */
async function serve(
  root: string,
  env: Record<string, string> = {},
  flags: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [memBin, '--root', root, 'serve', '--port', '0', ...flags],
    {
      env: hermeticEnv(env),
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  cleanups.push(() => kill(child));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`mem serve exited: ${stderr}`);
      return /warm CLI socket .*cli\.sock/.test(stderr) ? true : undefined;
    },
    120_000,
    50,
  );
  return { url: /listening on (http:\/\/\S+)/.exec(stderr)![1]!, child, stderr: () => stderr };
}

/** `mem mcp` on `root` with `token`, driven by the MCP SDK's stdio client; its stderr collected. */
async function mcp(
  root: string,
  token: string,
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [memBin, 'mcp', '--no-jobs'],
    env: hermeticEnv({ ...env, MEM_ROOT: root, MEM_TOKEN: token }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  const client = new Client({ name: 'beside-serve', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, stderr: () => stderr, pid: transport.pid! };
}

async function mcpQuery(client: Client, query: string): Promise<any> {
  const answer = await client.callTool({ name: 'query', arguments: { query, project: ['demo'] } });
  expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
  return JSON.parse((answer as { content: { text: string }[] }).content[0]!.text);
}

async function httpQuery(url: string, token: string, query: string): Promise<any> {
  const params = new URLSearchParams({ query, project: 'demo' });
  const answer = await call(url, 'GET', `/memory/query?${params.toString()}`, { token });
  expect(answer.status).toBe(200);
  return answer.body;
}

const ids = (answer: { results: { sha256: string }[] }) => answer.results.map((r) => r.sha256);

/** One raw request line on the warm socket of `root`: the server's reply after its greeting. */
function rawWarm(root: string, request: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(join(root, '.mem', 'run', 'cli.sock'));
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      if (lines.length === 2) socket.write(`${JSON.stringify(request)}\n`);
      if (lines.length === 3) {
        socket.destroy();
        resolve(JSON.parse(lines[1]!));
      }
    });
  });
}

describe('`mem mcp` beside a running `mem serve` on one data root', () => {
  it('answers a query through the server: the HTTP answer, vector leg included; errors as its own', async () => {
    const { root, token } = seededRoot();
    const server = await serve(root);
    expect(pgliteHeld(join(root, '.mem', 'pg'))).toBe(true);
    const { client, stderr } = await mcp(root, token);

    const overHttp = await httpQuery(server.url, token, QUESTION);
    const overMcp = await mcpQuery(client, QUESTION);
    expect(overHttp.recall).toMatchObject({ vector: 'used' });
    expect(overHttp.recall.signals).toContain('vector_text');
    expect(ids(overHttp).length).toBeGreaterThan(0);
    expect(ids(overMcp)).toEqual(ids(overHttp));
    expect(overMcp).toEqual(overHttp);
    // Said at start, before any call: reads go to the server; not also "keyword recall only"
    // (the stop-33 walk read both notes, contradicting each other).
    expect(stderr()).toContain('mem mcp: note: query and context go to the mem serve');
    expect(stderr()).not.toMatch(/keyword recall only|stop pid/);

    // A caller error met on the server is this tool's error, the body HTTP gives.
    const refused = await client.callTool({
      name: 'query',
      arguments: { query: QUESTION, project: ['elsewhere'] },
    });
    expect(refused.isError).toBe(true);
    const overHttpRefused = await call(
      server.url,
      'GET',
      '/memory/query?query=x&project=elsewhere',
      {
        token,
      },
    );
    expect(JSON.parse((refused as { content: { text: string }[] }).content[0]!.text)).toEqual(
      overHttpRefused.body,
    );

    // The server's own gate: a write asked for on the socket is declined, and nothing is written.
    const before = mem(root, ['log', 'show', '--project', 'demo']);
    const write = {
      invoke: {
        operation: 'remember',
        input: { project: 'demo', type: 'fact', text: 'never written' },
        credential: token,
      },
      env: hermeticEnv(),
    };
    expect(await rawWarm(root, write)).toEqual({ declined: 'not a read of the projections' });
    expect(mem(root, ['log', 'show', '--project', 'demo'])).toBe(before);
  }, 300_000);

  // Stop 30 left forwarded reads outside the server's limits: an agent looping on `query`
  // through `mem mcp` was never refused, whatever the token's hourly allowance.
  it("a forwarded read counts against the token's limits, with its HTTP requests", async () => {
    const { root, token } = seededRoot();
    const server = await serve(root, {}, ['--rate-query', '2']);
    const { client } = await mcp(root, token);
    expect((await httpQuery(server.url, token, QUESTION)).recall).toMatchObject({ vector: 'used' });
    expect((await mcpQuery(client, QUESTION)).recall).toMatchObject({ vector: 'used' });
    const refused = await client.callTool({
      name: 'query',
      arguments: { query: QUESTION, project: ['demo'] },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused as { content: { text: string }[] }).content[0]!.text)).toMatchObject(
      {
        error: { code: 'RATE_LIMITED', details: { retry_after_s: expect.any(Number) } },
      },
    );
    const overHttp = await call(server.url, 'GET', '/memory/query?query=x&project=demo', { token });
    expect(overHttp.status).toBe(429);
  }, 300_000);

  // Stop-30 review, finding 3: a `mem mcp` configured otherwise than the server (MEM_NOW) was
  // declined on every call, and said so on every call.
  it('a `mem mcp` configured otherwise: declined once, naming the setting (never its value), then answered here', async () => {
    const { root, token } = seededRoot();
    await serve(root);
    const now = '2031-01-01T00:00:00Z';
    const read = {
      invoke: {
        operation: 'query',
        input: { query: QUESTION, project: ['demo'] },
        credential: token,
      },
      env: hermeticEnv({ MEM_NOW: now }),
    };
    const declined = await rawWarm(root, read);
    expect(declined).toEqual({
      declined: 'the caller is configured otherwise (MEM_NOW)',
      settings: ['MEM_NOW'],
    });
    expect(JSON.stringify(declined)).not.toContain(now);

    const { client, stderr } = await mcp(root, token, { MEM_NOW: now });
    for (let i = 0; i < 3; i += 1)
      expect((await mcpQuery(client, QUESTION)).recall).toMatchObject({ signals: ['keyword'] });
    const notes = stderr()
      .split('\n')
      .filter((line) => /configured otherwise/.test(line));
    expect(notes).toEqual([
      'mem mcp: note: mem serve on this root is configured otherwise (MEM_NOW): vector reads are answered here, not through it',
    ]);
  }, 300_000);

  it('a write through `mem mcp` lands once; the server catches pgvector up and both answer it alike', async () => {
    const { root, token } = seededRoot();
    const server = await serve(root);
    const { client } = await mcp(root, token);
    const text = 'The build fails when the lockfile is stale: run npm ci after a rebase';
    const written = await client.callTool({
      name: 'items',
      arguments: {
        action: 'remember',
        project: 'demo',
        type: 'fact',
        text,
        reason: 'beside serve',
      },
    });
    expect(written.isError, JSON.stringify(written)).toBeFalsy();
    const id = (
      JSON.parse((written as { content: { text: string }[] }).content[0]!.text) as {
        ids: string[];
      }
    ).ids[0]!;
    // The server still holds PGlite: the write's catch-up in `mem mcp` skipped it.
    expect(pgliteHeld(join(root, '.mem', 'pg'))).toBe(true);

    const question = 'why does the build fail after a rebase?';
    const overMcp = await mcpQuery(client, question);
    const overHttp = await httpQuery(server.url, token, question);
    expect(overHttp.recall).toMatchObject({ vector: 'used' });
    expect(overMcp).toEqual(overHttp);
    const item = overMcp.results.find((r: { item: { id: string } | null }) => r.item?.id === id);
    expect(item, JSON.stringify(overMcp.results)).toBeDefined();
    // Embedded by the server's own catch-up: the item is a vector hit too.
    expect(item.ranking.vector_text).toMatchObject({ similarity: expect.any(Number) });
    // One item event in the log, from one append.
    const events = mem(root, ['log', 'show', '--project', 'demo']);
    expect(events.split(text).length - 1).toBe(1);
  }, 300_000);

  it('a server that does not answer (stopped): answered here in seconds, keyword-only with CONFLICT; through it again once it answers', async () => {
    const { root, token } = seededRoot();
    const server = await serve(root);
    const { client, stderr } = await mcp(root, token);
    const overHttp = await httpQuery(server.url, token, QUESTION);

    server.child.kill('SIGSTOP'); // alive, holding PGlite and the socket, answering nothing
    const started = Date.now();
    const held = await mcpQuery(client, QUESTION);
    const tookMs = Date.now() - started;
    expect(held.recall).toMatchObject({ vector: 'failed', signals: ['keyword'] });
    expect(held.recall.errors).toEqual([
      expect.objectContaining({ leg: 'vector', code: 'CONFLICT' }),
    ]);
    expect(tookMs).toBeLessThan(20_000);
    expect(stderr()).toMatch(/cli\.sock did not answer \(no greeting within 3000 ms\)/);

    server.child.kill('SIGCONT');
    expect(await mcpQuery(client, QUESTION)).toEqual(overHttp);
  }, 300_000);

  it('the server killed under it: the next call opens PGlite here and answers with vectors, never hangs', async () => {
    const { root, token } = seededRoot();
    const server = await serve(root);
    const { client, stderr } = await mcp(root, token);
    const overHttp = await httpQuery(server.url, token, QUESTION);
    expect(ids(await mcpQuery(client, QUESTION))).toEqual(ids(overHttp));

    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL'); // no chance to close its socket or PGlite
    await exited;
    expect(existsSync(join(root, '.mem', 'run', 'cli.sock'))).toBe(true);

    const started = Date.now();
    const after = await mcpQuery(client, QUESTION);
    const tookMs = Date.now() - started;
    expect(after.recall).toMatchObject({ vector: 'used' });
    expect(ids(after)).toEqual(ids(overHttp));
    expect(tookMs).toBeLessThan(60_000);
    expect(stderr()).toMatch(/vector recall is answered here/);
    expect(existsSync(join(root, '.mem', 'run', 'cli.sock'))).toBe(false);
    expect(pgliteHeld(join(root, '.mem', 'pg'))).toBe(true); // by `mem mcp` now
  }, 300_000);
});

/*
 * The order of starts (stop 31): an agent runtime spawns `mem mcp` at session start, and the
 * person starts `mem serve` later. The one who started first held the embedded PGlite, so the
 * server answered HTTP and the CLI keyword-only for its whole life. Now `mem mcp` hands the
 * PGlite over to a server that would answer its reads, and the server takes it (a lock attempt a
 * second, and on each vector read); a crash of either leaves the other with it.
 */
describe('the order of starts of `mem mcp` and `mem serve` does not matter for vector recall', () => {
  it('a holder is who has the lock, not who has the lock file open: a lock attempt beside the holder is no second holder', async () => {
    const { root, cleanup } = tempDataRoot(['demo']);
    cleanups.push(cleanup);
    const pg = join(root, '.mem', 'pg');
    const release = lockPgliteDir(pg); // this process holds it
    cleanups.push(release);
    // Another process opens the lock file and keeps it open without the lock, as holdFileLock
    // does for the moment of a failed attempt.
    const opener = spawn(
      process.execPath,
      [
        '-e',
        `require('fs').openSync(${JSON.stringify(pgliteLockPath(pg))}, 'r+'); console.log('open'); setInterval(() => {}, 1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => kill(opener));
    await new Promise((r) => opener.stdout.once('data', r));
    const both = [process.pid, opener.pid!];
    expect(pgliteHolders(pg, both)).toEqual([process.pid]);
    release();
    expect(pgliteHolders(pg, both)).toEqual([]);
  }, 30_000);

  it('`mem mcp` first, then `mem serve`: the PGlite is handed to the server in seconds, mcp answers through it; the server killed, mcp takes it back', async () => {
    const { root, token } = seededRoot();
    const pg = join(root, '.mem', 'pg');
    const { client, stderr, pid } = await mcp(root, token);
    const alone = await mcpQuery(client, QUESTION);
    expect(alone.recall).toMatchObject({ vector: 'used' });
    expect(pgliteHolders(pg, [pid])).toEqual([pid]);

    const server = await serve(root);
    const both = [pid, server.child.pid!];
    // Who holds the PGlite, sampled every 20 ms through the hand-over: the holders seen in turn.
    // The kernel lock makes two holders impossible, so the check is the hand-over's order: `mem
    // mcp` lets go and the server takes it, never back to `mem mcp` while both live. (Holding is
    // the lock on an open of the lock file, not the open: the server's lock attempts, once a
    // second, open the file beside the holder's for a moment. pgliteHolders tells them apart.)
    const turns: string[] = [String(pid)];
    const sampler = setInterval(() => {
      const holders = pgliteHolders(pg, both).join(',');
      if (holders !== '' && holders !== turns.at(-1)) turns.push(holders);
    }, 20);
    cleanups.push(() => clearInterval(sampler));
    const started = Date.now();
    const overHttp = await until(
      async () => {
        const answer = await httpQuery(server.url, token, QUESTION);
        return answer.recall.vector === 'used' ? answer : undefined;
      },
      60_000,
      200,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(ids(overHttp)).toEqual(ids(alone));
    expect(stderr()).toMatch(/the embedded PGlite is handed to it/);
    await until(
      async () => /vector recall is answered here/.test(server.stderr()) || undefined,
      10_000,
    );
    clearInterval(sampler);
    expect(turns).toEqual([String(pid), String(server.child.pid)]);
    expect(pgliteHolders(pg, both)).toEqual([server.child.pid]);
    // `mem mcp` asks the server now: the HTTP answer, byte for byte.
    expect(await mcpQuery(client, QUESTION)).toEqual(overHttp);
    // And the CLI's reads, answered on the server's socket, have vectors too.
    const cli = JSON.parse(mem(root, ['query', QUESTION, '--project', 'demo', '--json']));
    expect(cli.recall).toMatchObject({ vector: 'used' });
    expect(ids(cli)).toEqual(ids(alone));

    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL'); // holding the PGlite: its lock dies with it
    await exited;
    const after = await mcpQuery(client, QUESTION);
    expect(after.recall).toMatchObject({ vector: 'used' });
    expect(ids(after)).toEqual(ids(alone));
    expect(pgliteHolders(pg, both)).toEqual([pid]); // `mem mcp` again
  }, 300_000);

  it('a read asked while `mem mcp` holds the PGlite, handed over before it reaches the vectors (while its token is read): not answered keyword-only here, but through the forward path', async () => {
    const { root, token } = seededRoot();
    // `mem mcp`'s parts in this process (commands/mcp.ts), so the interleaving can be forced:
    // the hand-over runs to its end inside the read's authentication, after the route saw the
    // PGlite held here and before the read reaches the vectors. No server answers: the forward
    // path then takes the PGlite back (it is free) and runs the read here again, with vectors.
    const io = {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      env: hermeticEnv({ MEM_TOKEN: token }),
      cwd: root,
    };
    const opened = await openCliRegistry(io, { root }, { runJobs: false });
    cleanups.push(() => opened.close());
    const logged: string[] = [];
    const vectors = heldVectorsRoute(opened, io.env, (line) => logged.push(line))!;
    cleanups.push(() => vectors.close());
    const server = createMcpServer(opened.registry, {
      credential: () => token,
      route: vectors.route,
    });
    const [near, far] = InMemoryTransport.createLinkedPair();
    await server.connect(far);
    const client = new Client({ name: 'hand-over-race', version: '1.0.0' });
    await client.connect(near);
    cleanups.push(() => client.close());

    const alone = await mcpQuery(client, QUESTION);
    expect(alone.recall).toMatchObject({ vector: 'used' });
    expect(opened.holdsVectors()).toBe(true);

    const { registry } = opened;
    const authenticate = registry.authenticate.bind(registry);
    let handed: boolean | undefined;
    registry.authenticate = async (credential, surface) => {
      handed ??= await opened.releaseVectors(); // once: the first read's authentication
      return authenticate(credential, surface);
    };
    const raced = await mcpQuery(client, QUESTION);
    expect(handed).toBe(true);
    expect(raced.recall).toMatchObject({ vector: 'used' });
    expect(ids(raced)).toEqual(ids(alone));
    expect(logged).toContain(
      'mem mcp: the embedded PGlite is free again: vector recall is answered here',
    );
  }, 120_000);

  it('a holding `mem mcp` that does not hand over (configured otherwise) killed: the server takes the PGlite, caught up with what it wrote meanwhile', async () => {
    const { root, token } = seededRoot();
    const pg = join(root, '.mem', 'pg');
    const holder = await mcp(root, token, { MEM_NOW: '2031-01-01T00:00:00Z' });
    expect((await mcpQuery(holder.client, QUESTION)).recall).toMatchObject({ vector: 'used' });
    const server = await serve(root);
    await until(
      async () => /configured otherwise \(MEM_NOW\)/.test(holder.stderr()) || undefined,
      20_000,
    );
    const both = [holder.pid, server.child.pid!];
    expect(pgliteHolders(pg, both)).toEqual([holder.pid]);

    // Written while the server cannot reach pgvector: its catch-up leaves it behind.
    const text = 'The release build needs NODE_OPTIONS=--max-old-space-size=4096 on the CI runners';
    const written = await call(server.url, 'POST', '/memory/remember', {
      token,
      body: { project: 'demo', type: 'fact', text, reason: 'order of starts' },
    });
    expect(written.status).toBe(201);
    const id = (written.body as { ids: string[] }).ids[0]!;
    const question = 'what do the CI runners need for the release build?';
    const held = await httpQuery(server.url, token, question);
    expect(held.recall).toMatchObject({ vector: 'failed', signals: ['keyword'] });
    expect(held.recall.errors).toEqual([
      expect.objectContaining({ leg: 'vector', code: 'CONFLICT' }),
    ]);

    process.kill(holder.pid, 'SIGKILL');
    const started = Date.now();
    const taken = await until(
      async () => {
        const answer = await httpQuery(server.url, token, question);
        return answer.recall.vector === 'used' ? answer : undefined;
      },
      60_000,
      200,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    const item = taken.results.find((r: { item: { id: string } | null }) => r.item?.id === id);
    expect(item, JSON.stringify(taken.results)).toBeDefined();
    // Embedded by the server's catch-up when it took the PGlite: never an index behind the log.
    expect(item.ranking.vector_text).toMatchObject({ similarity: expect.any(Number) });
    expect(pgliteHolders(pg, both)).toEqual([server.child.pid]);
  }, 300_000);
});
