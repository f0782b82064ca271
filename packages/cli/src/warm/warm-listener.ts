import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { isMemError, makePrivateDirectory, type MemConfig } from '@mem/core';
import { isCallerError, type Registry } from '@mem/registry';
import { cliConfig } from '../config.js';
import type { CliIO } from '../io.js';
import { forwardPlan } from './forward-plan.js';
import {
  MAX_CONNECTIONS,
  MAX_REQUEST_BYTES,
  READY,
  REQUEST_LINE_MS,
  type WarmInvoke,
  type WarmDecline,
  type WarmInvokeReply,
  type WarmProbe,
  type WarmProbeReply,
  type WarmReply,
  type WarmRequest,
} from './protocol.js';
import { currentUid, trustWarmSocket, warmSocketPath } from './socket-trust.js';
import type { RegistryOpener } from '../open-registry.js';
import { warmOpener } from './warm-opener.js';

/** Runs `mem` with `argv` on `io`, opening registries with `open` (main, injected: main imports serve). */
export type RunCli = (argv: string[], io: CliIO, open: RegistryOpener) => Promise<number>;

export interface WarmListenerOptions {
  registry: Registry;
  /** Why the server's vector side is missing now, else null (it may take the embedded PGlite later). */
  vectorNote: () => string | null;
  /** The configuration the registry was opened with: a caller's must equal it (its root aside). */
  config: MemConfig;
  run: RunCli;
  /**
   * Counts one forwarded registry read of `tokenId` against the server's per-token limits (the
   * HTTP API's): throws RATE_LIMITED when over, answered to the `mem mcp` as its error.
   */
  rateLimit?: (tokenId: string, operation: string) => void;
}

/** A listening warm socket; close() stops it and removes the file. */
export interface WarmListener {
  path: string;
  close(): Promise<void>;
}

/**
 * Listens on the data root's warm socket (0600 in a 0700 directory) and runs there, on the
 * registry this server already holds open, each forwarded read command of the CLI and each
 * registry read a `mem mcp` of this root forwards. Throws a MemError naming why when it cannot
 * (another server answers there, a file that is not a socket, a directory that is not the
 * owner's): the caller says so and serves HTTP without it.
 */
export async function listenWarmSocket(options: WarmListenerOptions): Promise<WarmListener> {
  const root = options.registry.context.engine.paths.root;
  const path = warmSocketPath(root);
  makePrivateDirectory(dirname(path));
  await clearStale(path);
  const server = createServer((socket) => serveConnection(socket, root, options));
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The 0700 directory keeps others out until the socket itself is 0600.
  chmodSync(path, 0o600);
  const trust = trustWarmSocket(path);
  if (trust.kind !== 'trusted') {
    await closeServer(server);
    throw new Error(`warm socket ${path} ${trust.kind === 'refused' ? trust.why : 'vanished'}`);
  }
  return { path, close: () => closeServer(server) };
}

/** A socket file left by a server that died is removed; one that answers is another server's. */
async function clearStale(path: string): Promise<void> {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket`);
  if (stat.uid !== currentUid()) throw new Error(`${path} is owned by uid ${stat.uid}`);
  const answered = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (answered) throw new Error(`another mem serve answers on ${path}`);
  unlinkSync(path);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * One connection: the greeting, then one request line of at most MAX_REQUEST_BYTES bytes
 * within REQUEST_LINE_MS, then the answer. Trigger: a line too long, or none in time. Why: a
 * half-sent line held its buffer for as long as the client kept the connection open. Outcome:
 * the connection is closed unanswered (a real client then runs the command itself).
 */
function serveConnection(socket: Socket, root: string, options: WarmListenerOptions): void {
  socket.on('error', () => socket.destroy()); // a client that went away: nothing to answer
  // A deadline for the whole line, not an idle timeout: a byte now and then does not extend it.
  const deadline = setTimeout(() => socket.destroy(), REQUEST_LINE_MS);
  socket.once('close', () => clearTimeout(deadline));
  socket.write(`${JSON.stringify(READY)}\n`);
  const chunks: Buffer[] = [];
  let bytes = 0;
  socket.on('data', (chunk: Buffer) => {
    const newline = chunk.indexOf(0x0a);
    if (bytes + (newline < 0 ? chunk.length : newline) > MAX_REQUEST_BYTES)
      return void socket.destroy();
    chunks.push(newline < 0 ? chunk : chunk.subarray(0, newline));
    bytes += chunk.length;
    if (newline < 0) return;
    socket.removeAllListeners('data');
    clearTimeout(deadline); // the command may run long: the client waits for its answer
    void answer(Buffer.concat(chunks).toString('utf8'), root, options)
      .catch((error: unknown) => ({ declined: `failed here: ${(error as Error).message}` }))
      .then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
  });
}

/** The reply to one request line: the command or read run here, or why not (the client runs it itself). */
async function answer(
  line: string,
  root: string,
  options: WarmListenerOptions,
): Promise<WarmReply | WarmInvokeReply | WarmProbeReply> {
  const value = parseLine(line);
  // A `mem mcp` holding the PGlite asks whether its reads would be answered here.
  const probe = asProbe(value);
  if (probe) return configuredOtherwise(probe.probe.env, options.config) ?? { accepted: true };
  const invoke = asInvoke(value);
  if (invoke) return answerInvoke(invoke, options);
  const request = asCommand(value);
  if (!request) return { declined: 'not a request' };
  const plan = forwardPlan(request.args, request.env, request.cwd);
  if (!plan) return { declined: 'not a forwarded command' };
  if (plan.root !== root) return { declined: `another data root (${plan.root})` };
  const otherwise = configuredOtherwise(request.env, options.config);
  if (otherwise) return otherwise;
  let out = '';
  let err = '';
  const stdout = new PassThrough().on('data', (d: Buffer) => (out += d.toString('utf8')));
  const stderr = new PassThrough().on('data', (d: Buffer) => (err += d.toString('utf8')));
  const io: CliIO = {
    stdin: Readable.from([]),
    stdout,
    stderr,
    env: request.env,
    cwd: request.cwd,
  };
  const opener = warmOpener(options.registry, options.vectorNote, root);
  const code = await options.run(['node', 'mem', ...request.args], io, opener.open);
  if (opener.declined()) return { declined: opener.declined()! };
  return { code, stdout: out, stderr: err };
}

/**
 * A registry read of `mem mcp`, run as HTTP runs one: the credential authenticated here (the
 * `mcp` surface) and counted against the token's rate limits (`rateLimit`), then validation and authorization by the registry. Only reads of the
 * projections are taken, whatever the client asked: an append checks provenance under the
 * project's lock wherever it runs, so `mem mcp` keeps its writes (as the CLI does). A caller
 * error (401, 403, 404, 400) is the answer, returned for the client to report as its own;
 * anything else declines, and the client answers in its process.
 */
async function answerInvoke(
  request: WarmInvoke,
  options: WarmListenerOptions,
): Promise<WarmInvokeReply> {
  const { registry } = options;
  const op = registry.remote.find((o) => o.name === request.invoke.operation);
  if (!op || op.kind !== 'read' || !['stores', 'vectors', undefined].includes(op.reads))
    return { declined: 'not a read of the projections' };
  const otherwise = configuredOtherwise(request.env, options.config);
  if (otherwise) return otherwise;
  try {
    const caller = await registry.authenticate(request.invoke.credential ?? undefined, 'mcp');
    if (caller.tokenId !== null) options.rateLimit?.(caller.tokenId, op.name);
    return { output: await registry.invoke(op.name, caller, request.invoke.input) };
  } catch (error) {
    if (!isMemError(error) || !isCallerError(error.code)) throw error;
    const details = { ...error.details };
    return {
      error: {
        code: error.code,
        message: error.message,
        ...(Object.keys(details).length > 0 ? { details } : {}),
      },
    };
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

function stringRecord(value: unknown): value is Record<string, string> {
  return (
    !!value && typeof value === 'object' && Object.values(value).every((v) => typeof v === 'string')
  );
}

function asInvoke(value: unknown): WarmInvoke | null {
  const r = value as Partial<WarmInvoke> | null;
  if (!r || typeof r !== 'object' || !r.invoke || typeof r.invoke !== 'object') return null;
  const { operation, credential } = r.invoke;
  if (typeof operation !== 'string') return null;
  if (credential !== null && typeof credential !== 'string') return null;
  if (!stringRecord(r.env)) return null;
  return r as WarmInvoke;
}

function asProbe(value: unknown): WarmProbe | null {
  const r = value as Partial<WarmProbe> | null;
  if (!r || typeof r !== 'object' || !r.probe || typeof r.probe !== 'object') return null;
  return stringRecord(r.probe.env) ? (r as WarmProbe) : null;
}

function asCommand(value: unknown): WarmRequest | null {
  const r = value as Partial<WarmRequest> | null;
  if (!r || typeof r !== 'object' || typeof r.cwd !== 'string') return null;
  if (!Array.isArray(r.args) || !r.args.every((a) => typeof a === 'string')) return null;
  if (!stringRecord(r.env)) return null;
  return r as WarmRequest;
}

/**
 * Whether a caller's environment configures mem as this server is (the root aside, which the
 * socket's place already matched): null when it does, else the decline naming the settings that
 * differ — their names only, never a value (a caller's token or clock is not the reply's to
 * carry). Why: the answer must be the caller's own — a frozen clock (MEM_NOW), another floor or
 * embedder gives another answer, so such a caller runs in-process. An environment that does not
 * load is declined too, naming no setting: in-process it fails as it should.
 */
function configuredOtherwise(env: Record<string, string>, config: MemConfig): WarmDecline | null {
  let theirs: MemConfig;
  try {
    theirs = cliConfig({ env } as CliIO);
  } catch {
    return { declined: 'the caller is configured otherwise (its settings do not load)' };
  }
  const mine = comparable(config);
  const their = comparable(theirs);
  const settings = [...new Set([...Object.keys(mine), ...Object.keys(their)])]
    .filter((key) => JSON.stringify(mine[key]) !== JSON.stringify(their[key]))
    .sort();
  if (settings.length === 0) return null;
  return { declined: `the caller is configured otherwise (${settings.join(', ')})`, settings };
}

/**
 * The settings an answer depends on. MEM_ROOT is matched by the socket's place; MEM_TOKEN is
 * `mem mcp`'s credential, which a CLI read (the local root) never uses, so a shell that
 * exports it for an agent runtime is still answered here rather than in-process, where a
 * running server's PGlite leaves it keyword-only.
 */
function comparable(config: MemConfig): Record<string, unknown> {
  const { MEM_ROOT: _root, MEM_TOKEN: _token, ...rest } = config;
  return rest;
}
