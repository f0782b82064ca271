import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemError, type SourceCheck } from '@mem/core';

/** What an item's citation reads: a path or URI and the digest it had when written. */
export interface CitedSource {
  source_uri: string | null;
  source_sha256: string | null;
}

/**
 * The most bytes a cited source is hashed at. Trigger: a larger file. Why: every orient, open
 * and find re-reads each cited source, and a log or dump cited by path would make each of them
 * read it whole. Outcome: 'unreadable', not judged.
 */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

/**
 * The cited source of an item as it reads now: its bytes hashed and compared with the digest
 * written with it. A path is the data root's when relative; a `file:` URI is its path. Trigger:
 * any other URI (https:, a ticket id). Why: recall reaches no network, and a source it cannot
 * read is not evidence that the item is wrong. Outcome: null, not judged, like no citation.
 *
 * A local path that leaves the data root (absolute, `..`, a symlink out of it, a top-level
 * dot-entry such as `.git/` or `.env`, mem's own log/, queries/ or vault/), whether written
 * before writes were confined or made so by a symlink swapped in later, is 'outside' whatever it
 * names, decided without a look outside the root. Why not null like an https: source: null
 * would deliver it as fresh without a word, and the owner would never learn the citation is not
 * checked; why not 'unreadable': its next action is `confirm`, and a confirmation leaves the
 * citation unread, so the fact would stay held back for good ('outside' asks for a new
 * citation). Whether the outside path exists, or has the digest, is not in the answer.
 */
export async function checkSource(item: CitedSource, root: string): Promise<SourceCheck | null> {
  if (item.source_uri === null || item.source_sha256 === null) return null;
  const path = localPath(item.source_uri);
  if (path === null) return null;
  if (path === INVALID) return 'outside';
  let resolved: string | null;
  try {
    resolved = await resolveBeneath(root, path);
  } catch {
    // A component inside the root that cannot be looked at, or a symlink loop.
    return 'unreadable';
  }
  if (resolved === null) return 'outside';
  const bytes = await readConfined(root, path, resolved);
  // Gone, unreadable, not a regular file, too large, or swapped while opened: never "changed".
  if (bytes === null) return 'unreadable';
  const digest = createHash('sha256').update(bytes).digest('hex');
  return digest === item.source_sha256 ? 'unchanged' : 'changed';
}

/**
 * A cited source a write may record: a non-file URI as given, or a local path that resolves
 * inside the data root. Trigger: an absolute path or `file:` URI outside the root, `..` or a
 * symlink that leaves it, a top-level dot-entry of the root (`.git/config`, `.env`), a path into
 * mem's own state. Why: every read re-hashes a cited path,
 * so a token holder could learn whether any path on the server exists or has a guessed digest.
 * Outcome: INVALID_INPUT naming `field`, nothing written. Only the path's components inside
 * the root are looked at (lstat, readlink), so the refusal is the same whether what lies
 * outside exists or not.
 */
export async function requireConfinedSource(
  uri: string,
  root: string,
  field: string,
): Promise<void> {
  const path = localPath(uri);
  if (path === null) return;
  const resolved = path === INVALID ? null : await resolveBeneath(root, path).catch(() => null);
  if (resolved !== null) return;
  throw new MemError('INVALID_INPUT', `${field}: ${CONFINED}`, { field, expected: CONFINED });
}

const CONFINED =
  "expected a path inside the data root (relative to it; no '..' or symlink that leaves it, " +
  "not its log/, queries/, vault/ or a top-level entry starting with '.' such as .mem/, .git/ " +
  'or .env), a file: URI of one, or a non-file URI';

/**
 * The data root's own state: a cited path into it would tell one project of another's. Compared
 * exactly where names are case-sensitive (Linux: `Vault/n.md` is another directory), folded
 * where the file system usually folds case (macOS, Windows), or `Log/` would read `log/`.
 */
const OWN_STATE = new Set(['log', 'queries', 'vault']);
const FOLDS_CASE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * A first component of a path under the data root that is never cited: mem's own state, or a
 * dot-entry (`.mem/`, `.git/config`, `.env`): a token holder could confirm a guessed digest of
 * a repository's credentials or environment.
 */
function offLimits(first: string): boolean {
  return first.startsWith('.') || OWN_STATE.has(FOLDS_CASE ? first.toLowerCase() : first);
}

/** The realpath of each data root this process has resolved: one realpath per root, not per citation. */
const REAL_ROOTS = new Map<string, string>();

async function realRoot(given: string): Promise<string> {
  const known = REAL_ROOTS.get(given);
  if (known !== undefined) return known;
  const real = await realpath(given).catch(() => null);
  // A root that does not resolve (yet) is not remembered: it is resolved again next time.
  if (real === null) return given;
  REAL_ROOTS.set(given, real);
  return real;
}

/** Symlinks followed within one cited path before it is given up as unresolvable (Linux's own limit). */
const MAX_SYMLINKS = 40;

/**
 * The path a cited `path` names, with every symlink resolved, or null when it leaves the data
 * root (or names a path under it that is never cited: offLimits). Trigger: any local path, on write and on every read. Why: a
 * string check misses a symlink, and realpath would look outside the root (a dangling link and
 * a live one to outside would answer differently). Outcome: the path is made absolute and
 * normalised; one outside the root (as given or as its realpath) is null without touching the
 * disk; inside, each component is lstat'ed, a symlink's target read (readlink, never followed)
 * and checked the same way, so nothing outside the root is ever looked at. A path whose rest
 * does not exist resolves to itself (a read finds it gone). The result lies under the root's
 * realpath and not in mem's own state. Each first component under the root, of the path and of
 * every symlink target, is checked, so a dot-directory is not even walked. Throws when a
 * component cannot be looked at (EACCES) or symlinks loop: not outside, but not readable.
 */
export async function resolveBeneath(root: string, path: string): Promise<string | null> {
  const given = resolve(root);
  const real = await realRoot(given);
  const absolute = resolve(given, path);
  const rest = inside(given, absolute) ?? inside(real, absolute);
  if (rest === null) return null;
  const parts = rest.split(sep).filter((p) => p !== '');
  let current = real;
  let links = 0;
  while (parts.length > 0) {
    const part = parts.shift()!;
    if (current === real && offLimits(part)) return null;
    const next = join(current, part);
    let info: Stats;
    try {
      info = await lstat(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      current = join(next, ...parts);
      break;
    }
    if (!info.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++links > MAX_SYMLINKS) throw new Error(`more than ${MAX_SYMLINKS} symlinks`);
    const target = resolve(current, await readlink(next));
    // An absolute target may name the root by the path it was given (a symlinked root).
    const within = inside(given, target) ?? inside(real, target);
    if (within === null) return null;
    parts.unshift(...within.split(sep).filter((p) => p !== ''));
    current = real;
  }
  return current;
}

/** `path` relative to `root` when it is `root` or under it, else null (both absolute, normalised). */
function inside(root: string, path: string): string | null {
  const rest = relative(root, path);
  if (rest === '') return '';
  return rest === '..' || rest.startsWith(`..${sep}`) || isAbsolute(rest) ? null : rest;
}

/**
 * The bytes of a cited path confined to the data root, or null. `resolved` is the path resolved
 * beneath the root (resolveBeneath); it is read (readRegular), and the file held open must still
 * lie inside the root, so a directory swapped for a symlink to outside between the two is
 * refused. On Linux the descriptor says where it is (`/proc/self/fd/N`, the kernel's path of the
 * open file): one readlink, inside the root's realpath and not off limits. Elsewhere, or without
 * /proc, the path is resolved again and must name the same file (device and inode).
 */
async function readConfined(root: string, path: string, resolved: string): Promise<Buffer | null> {
  return readRegular(resolved, async (opened, fd) => {
    const held = await heldPath(fd);
    if (held !== null) {
      const real = await realRoot(resolve(root));
      const rest = inside(real, held);
      return rest !== null && rest !== '' && !offLimits(rest.split(sep)[0]!);
    }
    const again = await resolveBeneath(root, path).catch(() => null);
    if (again === null) return false;
    const now = await stat(again).catch(() => null);
    return now !== null && now.dev === opened.dev && now.ino === opened.ino;
  });
}

/** The path the kernel holds for an open descriptor (Linux's /proc), or null where it cannot say. */
async function heldPath(fd: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  const held = await readlink(`/proc/self/fd/${fd}`).catch(() => null);
  // Not a path (`anon_inode:…`), or a file unlinked since it was opened: ask the slow way.
  return held !== null && isAbsolute(held) && !held.endsWith(' (deleted)') ? held : null;
}

/**
 * The bytes of a regular file of at most MAX_SOURCE_BYTES, or null. Trigger: a FIFO, a socket,
 * a device (/dev/zero) or a directory cited by path. Why: reading a FIFO with no writer waits
 * forever on one of libuv's four threadpool threads, so a few such reads hang orient and stall
 * every other file read of `mem serve`. Outcome: null. The path is stat'ed before it is opened
 * (opening a device can act on it), opened non-blocking (a FIFO opens without waiting for a
 * writer, never through a symlink in its last component), and its descriptor fstat'ed again
 * and shown to `same` with its descriptor (readConfined's check that it is still the file inside
 * the data root), so
 * a path swapped in between is still refused; the read stops one byte past the size fstat
 * gave, so a file that grows meanwhile is refused.
 */
async function readRegular(
  path: string,
  same: (opened: Stats, fd: number) => Promise<boolean>,
): Promise<Buffer | null> {
  try {
    const before = await stat(path);
    if (!before.isFile() || before.size > MAX_SOURCE_BYTES) return null;
    const handle = await open(
      path,
      constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0),
    );
    try {
      const now = await handle.stat();
      if (!now.isFile() || now.size > MAX_SOURCE_BYTES || !(await same(now, handle.fd)))
        return null;
      const buffer = Buffer.alloc(Math.min(now.size + 1, MAX_SOURCE_BYTES + 1));
      let length = 0;
      for (;;) {
        if (length === buffer.length) return null;
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      return buffer.subarray(0, length);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

const INVALID = Symbol('invalid file: URI');

/** The local path a citation names; null for another URI (not judged); INVALID for a `file:` URI with no local path. */
function localPath(uri: string): string | typeof INVALID | null {
  // The scheme in any case (`FILE:///etc/passwd` is a file: URI, RFC 3986 §3.1).
  if (/^file:/i.test(uri)) {
    try {
      return fileURLToPath(uri);
    } catch {
      return INVALID;
    }
  }
  // A scheme (`https:`, `s3:`), but not a Windows drive letter.
  if (/^[a-z][a-z0-9+.-]+:/i.test(uri)) return null;
  return uri;
}
