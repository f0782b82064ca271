import { connect, type Socket } from 'node:net';
import { lstatSync, unlinkSync, type Stats } from 'node:fs';
import type { Writable } from 'node:stream';
import { forwardPlan } from './forward-plan.js';
import type {
  WarmDecline,
  WarmInvoke,
  WarmInvokeReply,
  WarmProbe,
  WarmProbeReply,
  WarmReply,
  WarmRequest,
} from './protocol.js';
import { trustWarmSocket, warmSocketPath } from './socket-trust.js';

/** How long a socket may take to accept and greet: past it, the server is taken for wedged. */
const GREETING_MS = 3000;

export interface ForwardIO {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: Writable;
  stderr: Writable;
}

/**
 * Runs a read command through the `mem serve` of its data root, when one answers on the warm
 * socket: its output written to `io`, its exit code returned. Null when the command is not
 * forwarded, no server answers, or the server declines — the caller then runs it in-process,
 * which is safe since nothing was done (only reads are forwarded). A stale socket (nothing
 * listens) is removed; an untrusted one is left alone, and said so on stderr.
 */
export async function forwardToWarmServer(
  args: readonly string[],
  io: ForwardIO,
): Promise<number | null> {
  const plan = forwardPlan(args, io.env, io.cwd);
  if (!plan) return null;
  const path = warmSocketPath(plan.root);
  const trust = trustWarmSocket(path);
  if (trust.kind === 'absent') return null;
  if (trust.kind === 'refused') {
    io.stderr.write(`mem: note: not using ${path}: ${trust.why}; answering in-process\n`);
    return null;
  }
  const request: WarmRequest = { args: [...args], cwd: io.cwd, env: definedOnly(io.env) };
  const outcome = await exchange<WarmReply>(path, request);
  if (outcome.kind === 'stale') {
    removeStale(path, trust.stat);
    return null;
  }
  if (outcome.kind === 'silent') {
    io.stderr.write(`mem: note: ${path} did not answer (${outcome.why}); answering in-process\n`);
    return null;
  }
  if ('declined' in outcome.reply) return null;
  io.stdout.write(outcome.reply.stdout);
  io.stderr.write(outcome.reply.stderr);
  return outcome.reply.code;
}

/**
 * Runs one registry read of `mem mcp` on the `mem serve` of the data root `root`, when one
 * answers on the warm socket: the operation's output, or the caller error it met there. Null
 * when no server answers (none runs, or it stopped: a stale socket is removed), it declines, or
 * it goes away before answering — a read, so the caller runs it itself; why is said through
 * `note` when a server was there.
 */
export async function invokeOnWarmServer(
  root: string,
  request: WarmInvoke,
  note: (line: string) => void,
): Promise<Exclude<WarmInvokeReply, WarmDecline> | { settings: string[] } | null> {
  const path = warmSocketPath(root);
  const trust = trustWarmSocket(path);
  if (trust.kind === 'absent') return null;
  if (trust.kind === 'refused') {
    note(`not using ${path}: ${trust.why}`);
    return null;
  }
  const outcome = await exchange<WarmInvokeReply>(path, request);
  if (outcome.kind === 'stale') {
    removeStale(path, trust.stat);
    return null;
  }
  if (outcome.kind === 'silent') {
    note(`${path} did not answer (${outcome.why})`);
    return null;
  }
  const { reply } = outcome;
  // Declined for the caller's settings: it will be on every call, so the caller says so once.
  if (reply && typeof reply === 'object' && 'declined' in reply && Array.isArray(reply.settings))
    return { settings: reply.settings.filter((s): s is string => typeof s === 'string') };
  if (!reply || typeof reply !== 'object' || 'declined' in reply) {
    note(`${path} declined (${reply && typeof reply === 'object' ? reply.declined : 'no reply'})`);
    return null;
  }
  return reply;
}

/**
 * Whether the `mem serve` of the data root `root` answers on its warm socket and would answer
 * this caller's reads of the vectors (`env` configures mem as it is configured): 'accepted',
 * the settings it declines for, or null (no server, a stale socket, which is removed, one that
 * is not answering or not trusted: nothing is said, the caller asks again later).
 */
export async function probeWarmServer(
  root: string,
  env: Record<string, string>,
): Promise<'accepted' | { settings: string[] } | null> {
  const path = warmSocketPath(root);
  const trust = trustWarmSocket(path);
  if (trust.kind !== 'trusted') return null;
  const probe: WarmProbe = { probe: { env } };
  const outcome = await exchange<WarmProbeReply>(path, probe);
  if (outcome.kind === 'stale') {
    removeStale(path, trust.stat);
    return null;
  }
  if (outcome.kind !== 'answered') return null;
  const { reply } = outcome;
  if (!reply || typeof reply !== 'object') return null;
  if ('accepted' in reply && reply.accepted === true) return 'accepted';
  if ('declined' in reply && Array.isArray(reply.settings))
    return { settings: reply.settings.filter((s): s is string => typeof s === 'string') };
  return null;
}

type Outcome<R> =
  { kind: 'stale' } | { kind: 'silent'; why: string } | { kind: 'answered'; reply: R };

/** One request on a new connection: greeting within GREETING_MS, then the reply, however long the command runs. */
function exchange<R>(
  path: string,
  request: WarmRequest | WarmInvoke | WarmProbe,
): Promise<Outcome<R>> {
  return new Promise((resolve) => {
    const socket: Socket = connect(path);
    let greeted = false;
    let buffered = '';
    const finish = (outcome: Outcome<R>) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ kind: 'silent', why: `no greeting within ${GREETING_MS} ms` }),
      GREETING_MS,
    );
    socket.setEncoding('utf8');
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        error.code === 'ECONNREFUSED' || error.code === 'ENOENT'
          ? { kind: 'stale' }
          : { kind: 'silent', why: error.code ?? error.message },
      ),
    );
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (!greeted) {
          greeted = true;
          clearTimeout(timer);
          socket.write(`${JSON.stringify(request)}\n`);
        } else return finish(parseReply<R>(line));
      }
    });
    // The server went away before answering (it stopped, or crashed): the command was a read.
    socket.on('close', () => finish({ kind: 'silent', why: 'closed before answering' }));
  });
}

function parseReply<R>(line: string): Outcome<R> {
  try {
    return { kind: 'answered', reply: JSON.parse(line) as R };
  } catch {
    return { kind: 'silent', why: 'an answer that is not JSON' };
  }
}

/**
 * Removes a socket nothing listens on, if it is still the file that refused (same inode):
 * a server that started meanwhile bound a new one, which is left alone.
 */
function removeStale(path: string, refused: Stats): void {
  const now = lstatSync(path, { throwIfNoEntry: false });
  if (!now || now.ino !== refused.ino || now.dev !== refused.dev) return;
  try {
    unlinkSync(path);
  } catch {
    // Another client removed it first.
  }
}

export function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
