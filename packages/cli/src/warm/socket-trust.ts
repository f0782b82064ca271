import { lstatSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';

/*
 * Only node: imports here and in the other client modules of warm/: the forwarding client
 * runs before the CLI loads anything else, so what it imports is what a warm call pays.
 */

/** Where `mem serve` listens for the CLI of the data root `root`: inside the root's `.mem/`. */
export function warmSocketPath(root: string): string {
  return join(root, '.mem', 'run', 'cli.sock');
}

/** What the CLI may do with the warm socket: nothing there, refuse it (why), or connect. */
export type SocketTrust =
  { kind: 'absent' } | { kind: 'refused'; why: string } | { kind: 'trusted'; stat: Stats };

/**
 * Whether the socket at `path` may be connected to. Why these checks: the socket answers as the
 * local principal, so only the data root's owner may reach it, and only a server that owner
 * started may answer a command of theirs — a socket someone else could have placed (another
 * user's, or in a directory others can write to) is never trusted. Read with lstat: a symlink
 * is neither a directory nor a socket.
 */
export function trustWarmSocket(path: string, uid = currentUid()): SocketTrust {
  const socket = lstatIfAny(path);
  if (!socket) return { kind: 'absent' };
  const dir = dirname(path);
  const why =
    refusal(dir, lstatIfAny(dir), 'directory', 0o700, uid) ??
    refusal(path, socket, 'socket', 0o600, uid);
  return why ? { kind: 'refused', why } : { kind: 'trusted', stat: socket };
}

/**
 * The entry at `path`, or undefined where there is none: also where a parent is a file
 * (ENOTDIR: `--root` naming a file), which the command then reports as no data root.
 */
function lstatIfAny(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function refusal(
  path: string,
  stat: Stats | undefined,
  kind: 'directory' | 'socket',
  widest: number,
  uid: number | undefined,
): string | null {
  if (!stat) return `${path} is gone`;
  if (kind === 'directory' ? !stat.isDirectory() : !stat.isSocket())
    return `${path} is not a ${kind}`;
  if (uid !== undefined && stat.uid !== uid)
    return `${path} is owned by uid ${stat.uid} (this process runs as uid ${uid})`;
  if ((stat.mode & 0o777 & ~widest) !== 0)
    return `${path} has mode 0${(stat.mode & 0o777).toString(8)}, wider than 0${widest.toString(8)}`;
  return null;
}

/** The effective user, where the platform has one (not on Windows, which has no unix sockets to check). */
export function currentUid(): number | undefined {
  return process.geteuid?.();
}
