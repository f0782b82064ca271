import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemError, type SourceCheck } from '@mem/core';
import {
  citedDirectoriesByProject,
  citedRootsOf,
  type CitedList,
  type CitedRoots,
} from './cited-roots.js';

/** What an item's citation reads: a path or URI and the digest it had when written. */
export interface CitedSource {
  project: string;
  source_uri: string | null;
  source_sha256: string | null;
}

/**
 * One answer's view of cited sources: the data root, each project's citation roots (read once
 * per answer), and the lstat and readlink results of the path components its checks walked.
 * Trigger: an orient, open, find or query that judges many items citing files in the same
 * directories. Why: each component of each cited path is lstat'ed (resolveBeneath), so N items
 * in one deep directory paid N × depth lstats. Outcome: each component once per answer. Never
 * kept past the answer: a symlink swapped in since must be seen by the next one (create a new
 * scope per answer, citingScope). Only the listed directories' resolutions outlive it, each
 * checked against the stamps of the directories it read (keptForms).
 */
export interface CitingScope {
  root: string;
  /** When the answer began (citingScope's clock): a file stamped later is not kept (DIGESTS). */
  opened?: number;
  rootsOf(project: string): Promise<CitedRoots>;
  lstat(path: string): Promise<Stats>;
  readlink(path: string): Promise<string>;
}

/** The two looks a walk takes at a path component (node:fs/promises; a spec counts them). */
export interface ComponentLooks {
  lstat(path: string): Promise<Stats>;
  readlink(path: string): Promise<string>;
}

const NODE_LOOKS: ComponentLooks = { lstat: (p) => lstat(p), readlink: (p) => readlink(p) };

/**
 * A new CitingScope for one answer over the data root at `paths.root`. Each project's roots are
 * worked out once per answer (rootsOf). Each listed directory's resolution beneath the root is
 * kept across answers while the directories its walk read entries of are unchanged (keptForms),
 * so a symlink swapped in since is seen by the next answer. `clock` is the wall clock those
 * directories' timestamps are compared with (a spec moves it on).
 */
export function citingScope(
  paths: { root: string; queriesDir: string },
  looks: ComponentLooks = NODE_LOOKS,
  clock: () => number = Date.now,
): CitingScope {
  // Every look this answer takes is taken after this instant (keptForms' racy rule).
  const opened = clock();
  let lists: Promise<Map<string, CitedList>> | null = null;
  const roots = new Map<string, Promise<CitedRoots>>();
  const forms = new Map<string, Promise<(readonly string[])[]>>();
  const lstats = new Map<string, Promise<Stats>>();
  const links = new Map<string, Promise<string>>();
  const scope: CitingScope = {
    root: paths.root,
    opened,
    rootsOf: (project) =>
      remembered(roots, project, async () => {
        lists ??= citedDirectoriesByProject(paths.queriesDir);
        const listed = citedRootsOf(await lists, project);
        const formsOf = async (dirs: readonly (readonly string[])[]) =>
          (
            await Promise.all(
              dirs.map((dir) =>
                remembered(forms, dir.join(sep), () => keptForms(scope, dir, opened)),
              ),
            )
          ).flat();
        return {
          own: listed.own === null ? null : await formsOf(listed.own),
          others: await formsOf(listed.others),
        };
      }),
    lstat: (path) => remembered(lstats, path, (p) => looks.lstat(p)),
    readlink: (path) => remembered(links, path, (p) => looks.readlink(p)),
  };
  return scope;
}

/**
 * A listed directory's forms (listedForms) as an earlier answer resolved them, and the
 * directories whose entries that walk read, each with its stamp then (device, inode, mode,
 * ctime, mtime).
 */
interface Kept {
  forms: (readonly string[])[];
  dirs: ReadonlyMap<string, string>;
}

/** Each listed directory's kept resolution, by data root and directory. */
const KEPT = new Map<string, Kept>();
/** Resolutions kept at most (256 entries for each of 16 projects); past it all are dropped. */
const MAX_KEPT = 4096;
/**
 * How old a directory's ctime and mtime must be, at the start of the answer that read it, for
 * its stamp to vouch for its entries. Why: a file system stamps with a coarse clock (a kernel
 * tick; 2 s on FAT), so an entry changed within the same tick as an earlier change, after the
 * walk read it, would leave the stamp as the walk saw it (git's "racily clean" index).
 */
const RACY_MS = 2000;

const stampOf = (info: Stats): string =>
  `${info.dev}:${info.ino}:${info.mode}:${info.ctimeMs}:${info.mtimeMs}`;

/**
 * listedForms, reused across answers. Trigger: every answer reads every project's `cites:`
 * lists, and resolved each listed directory afresh: ~0.06 ms an entry (256 entries: 16–40 ms an
 * answer of 50 items). Why it may be kept: a walk's result rests only on the entries it read
 * (each component's lstat and a symlink's target), and a directory whose entries change (an
 * entry added, removed, renamed over or swapped for a symlink) gets a new ctime and mtime; a
 * directory swapped whole is an entry changed in its parent, walked too. Outcome: the walk's
 * forms are reused while each directory it read entries of has the stamp it had (one lstat per
 * directory per answer, shared by every entry under it); otherwise walked again. Kept only
 * when the walk settled (no EACCES, no loop), each directory read lstat'ed and stamped before
 * `opened - RACY_MS`. A failed look at a directory walks again, so it fails closed as before.
 */
async function keptForms(
  scope: CitingScope,
  dir: readonly string[],
  opened: number,
): Promise<(readonly string[])[]> {
  if (dir.length === 0) return [dir];
  const key = `${resolve(scope.root)}\0${dir.join(sep)}`;
  const kept = KEPT.get(key);
  if (kept !== undefined && (await unchanged(scope, kept.dirs))) return kept.forms;
  KEPT.delete(key);
  // The directories whose entries the walk reads: the parent of each component it lstats.
  const read = new Set<string>();
  const walking: CitingScope = {
    ...scope,
    lstat: (path) => {
      read.add(dirname(path));
      return scope.lstat(path);
    },
  };
  const walked = await listedForms(walking, dir);
  if (walked.settled) {
    const dirs = new Map<string, string>();
    for (const path of read) {
      const info = await scope.lstat(path).catch(() => null);
      if (info === null || Math.max(info.ctimeMs, info.mtimeMs) >= opened - RACY_MS)
        return walked.forms;
      dirs.set(path, stampOf(info));
    }
    if (KEPT.size >= MAX_KEPT) KEPT.clear();
    KEPT.set(key, { forms: walked.forms, dirs });
  }
  return walked.forms;
}

/** Whether every directory a kept walk read still has the stamp it had then. */
async function unchanged(scope: CitingScope, dirs: ReadonlyMap<string, string>): Promise<boolean> {
  for (const [path, stamp] of dirs) {
    const info = await scope.lstat(path).catch(() => null);
    if (info === null || stampOf(info) !== stamp) return false;
  }
  return true;
}

/**
 * A listed directory as written and as it resolves beneath the root now. Trigger: a `cites:`
 * entry that is a symlink (`beta-docs -> checkouts/payments/docs`) or lies under one. Why: a
 * walk compares the components it resolved, never a symlink's name, so the entry as written
 * shields nothing and keeps its own project out. Outcome: both forms; the written one stays so
 * a walk may pass through the link's name (mayEnter) and so another project's entry fails
 * closed. An entry that leaves the root or cannot be resolved (a loop, EACCES) keeps only its
 * written form: its files are still kept from other projects, and read by none through it.
 * `settled`: the walk ran to its end (false when a look failed: keptForms keeps nothing).
 */
async function listedForms(
  scope: CitingScope,
  dir: readonly string[],
): Promise<{ forms: (readonly string[])[]; settled: boolean }> {
  let settled = true;
  const at = await resolveBeneath(scope, join(...dir)).catch(() => {
    settled = false;
    return null;
  });
  const rest = at === null ? null : inside(await realRoot(resolve(scope.root)), at);
  if (rest === null) return { forms: [dir], settled };
  // A link to the root itself lists the whole root.
  const resolved = rest === '' ? [] : rest.split(sep);
  return { forms: sameDir(resolved, dir) ? [dir] : [dir, resolved], settled };
}

function remembered<T>(
  memo: Map<string, Promise<T>>,
  path: string,
  look: (path: string) => Promise<T>,
): Promise<T> {
  let known = memo.get(path);
  if (known === undefined) {
    known = look(path);
    // A failure is remembered too (ENOENT); it is handled where it is awaited.
    known.catch(() => undefined);
    memo.set(path, known);
  }
  return known;
}

/** No lists, no memory: the whole data root, each component looked at afresh (specs, tools). */
function bareScope(root: string): CitingScope {
  return {
    root,
    rootsOf: () => Promise.resolve({ own: null, others: [] }),
    lstat: (path) => lstat(path),
    readlink: (path) => readlink(path),
  };
}

function scopeOf(given: CitingScope | string): CitingScope {
  return typeof given === 'string' ? bareScope(given) : given;
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
export async function checkSource(
  item: CitedSource,
  given: CitingScope | string,
): Promise<SourceCheck | null> {
  if (item.source_uri === null || item.source_sha256 === null) return null;
  const path = localPath(item.source_uri);
  if (path === null) return null;
  if (path === INVALID) return 'outside';
  const scope = scopeOf(given);
  const roots = await scope.rootsOf(item.project);
  let resolved: string | null;
  try {
    resolved = await resolveBeneath(scope, path, roots);
  } catch {
    // A component inside the root that cannot be looked at, or a symlink loop.
    return 'unreadable';
  }
  if (resolved === null) return 'outside';
  const digest = await digestOf(scope, path, resolved, roots, item.project);
  // Gone, unreadable, not a regular file, too large, or swapped while opened: never "changed".
  if (digest === null) return 'unreadable';
  return digest === item.source_sha256 ? 'unchanged' : 'changed';
}

/**
 * Each cited file's sha256 by its resolved path, with the stamp (device, inode, mode, ctime,
 * mtime) and size it had when read. Trigger: find_items judges every match citing a source
 * (its exact total), and each judgement opened, read and hashed its file: ~0.3 ms CPU each,
 * 3 s for 10,000 citing matches. Why it may be kept: a file's bytes do not change without its
 * mtime and ctime moving, and a file swapped for another has another inode. Outcome: a file
 * whose lstat (the one its walk beneath the root took, resolveBeneath, in this answer) shows the
 * stamp it was read at answers the kept digest, unopened. Kept only when the descriptor read
 * had the stamp the walk saw and its ctime and mtime were RACY_MS older than the answer (a
 * write in the same clock tick as the read would not move them). Never a confinement check:
 * every answer walks the path beneath the root for its project as before; a file the walk
 * cannot see as a regular file is read (and refused) as before.
 */
const DIGESTS = new Map<string, { stamp: string; digest: string }>();
/** Digests kept at most; past it all are dropped. */
const MAX_DIGESTS = 65_536;

/** One answer's digests, by project and resolved path: a file cited by many items is read once an answer. */
const ANSWER_DIGESTS = new WeakMap<CitingScope, Map<string, Promise<string | null>>>();

/** The sha256 of the cited file `resolved` (for `path`, walked for `project`), or null when it cannot be read. */
function digestOf(
  scope: CitingScope,
  path: string,
  resolved: string,
  roots: CitedRoots,
  project: string,
): Promise<string | null> {
  let answer = ANSWER_DIGESTS.get(scope);
  if (answer === undefined)
    ANSWER_DIGESTS.set(scope, (answer = new Map<string, Promise<string | null>>()));
  const key = `${project}\0${resolved}`;
  let known = answer.get(key);
  if (known === undefined) {
    known = readDigest(scope, path, resolved, roots);
    answer.set(key, known);
  }
  return known;
}

async function readDigest(
  scope: CitingScope,
  path: string,
  resolved: string,
  roots: CitedRoots,
): Promise<string | null> {
  const walked = await scope.lstat(resolved).catch(() => null);
  const seen = walked !== null && walked.isFile() ? fileStamp(walked) : null;
  const kept = seen === null ? undefined : DIGESTS.get(resolved);
  if (kept !== undefined && kept.stamp === seen) return kept.digest;
  const read = await readConfined(scope, path, resolved, roots);
  if (read === null) return null;
  const digest = createHash('sha256').update(read.bytes).digest('hex');
  const stats = read.stats;
  if (
    seen !== null &&
    fileStamp(stats) === seen &&
    scope.opened !== undefined &&
    Math.max(stats.ctimeMs, stats.mtimeMs) < scope.opened - RACY_MS
  ) {
    if (DIGESTS.size >= MAX_DIGESTS) DIGESTS.clear();
    DIGESTS.set(resolved, { stamp: seen, digest });
  } else DIGESTS.delete(resolved);
  return digest;
}

const fileStamp = (info: Stats): string => `${stampOf(info)}:${info.size}`;

/**
 * The digest a write records for a cited source: a non-file URI's as given (it is never read), a
 * local path's as given or, when none is given, the sha256 of the file as it reads now. Trigger:
 * a local path that leaves the data root (absolute, `file:` outside it, `..`, a symlink out of
 * it), a top-level dot-entry of the root (`.git/config`, `.env`), mem's own state, a path the
 * project's `cites:` does not list, or one that cannot be read now (missing, not a regular file,
 * over MAX_SOURCE_BYTES). Why: every read re-hashes a cited path, so a token holder could learn
 * whether any path on the server exists or has a guessed digest; and a citation that cannot be
 * read now would be held back from the moment it is written, with nothing a confirmation could
 * settle. Outcome: INVALID_INPUT naming `field` and the rule that failed, nothing written. Only
 * the path's components inside the root are looked at (lstat, readlink), so the refusal is the
 * same whether what lies outside exists or not. The file is read through the same confined open
 * as every later check (readConfined).
 *
 * DECISION (stop 32): a given digest that differs from the file now is recorded, not refused.
 * Why: it is the caller's word for what it read; if the file moved since, the item was drawn from
 * the older text and reads `stale` (source_changed, next action `correct`) at once, which is the
 * truth. Refusing would invite the caller to pass the new digest for text it never read.
 */
export async function citedDigest(
  uri: string,
  given: CitingScope | string,
  field: string,
  project: string,
  sha256: string | undefined,
): Promise<string | undefined> {
  const path = localPath(uri);
  if (path === null) return sha256;
  const scope = scopeOf(given);
  const roots = await scope.rootsOf(project);
  const refuse = (why: string): never => {
    throw new MemError('INVALID_INPUT', `${field}: ${why}`, { field, expected: CONFINED });
  };
  if (path === INVALID) return refuse(`${uri}: a file: URI with no local path`);
  const resolved = await resolveExplained(scope, path, roots).catch(() => UNREADABLE);
  if (typeof resolved !== 'string') return refuse(refusal(uri, resolved, project, roots));
  const read = await readConfined(scope, path, resolved, roots);
  if (read === null)
    return refuse(
      `${uri}: cannot be read now (missing, not a regular file, or over ${MAX_SOURCE_BYTES / 1024 / 1024} MiB): a citation is checked against the file it names`,
    );
  return sha256 ?? createHash('sha256').update(read.bytes).digest('hex');
}

const CONFINED =
  "expected a path inside the data root (relative to it; no '..' or symlink that leaves it, " +
  "not its log/, queries/, vault/ or a top-level entry starting with '.' such as .mem/, .git/ " +
  "or .env) and inside a directory the project's queries/<project>.yaml lists under cites: " +
  '(when it lists any), not one only another project lists; a file: URI of one, or a URI with ' +
  'a scheme (https:, jira:), which is recorded unread';

/** Why a cited path is refused: each said from the path as given and what lies inside the root, never from outside it. */
type Refused = { refused: 'absolute' | 'leaves' | 'link' | 'own' | 'unlisted' | 'unreadable' };
const UNREADABLE: Refused = { refused: 'unreadable' };

function refusal(uri: string, why: Refused, project: string, roots: CitedRoots): string {
  switch (why.refused) {
    case 'absolute':
      return `${uri}: absolute path outside the data root (cite a path relative to it)`;
    case 'leaves':
      return `${uri}: leaves the data root`;
    case 'link':
      return `${uri}: a symlink in it leads out of the data root`;
    case 'own':
      return `${uri}: under mem's own log/, queries/ or vault/, or a top-level entry starting with '.', never cited`;
    case 'unreadable':
      return `${uri}: a directory on its way cannot be looked at (permissions, or symlinks that loop)`;
    case 'unlisted':
      return roots.own === null
        ? `${uri}: in a directory another project lists under cites:, and ${project} lists none (queries/${project}.yaml)`
        : `${uri} is outside ${project}'s cites: [${roots.own.map((d) => d.join('/')).join(', ')}] (queries/${project}.yaml)`;
  }
}

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
 * root (or names a path under it that is never cited: offLimits, or one `roots` keeps from the
 * project: mayCite). Trigger: any local path, on write and on every read. Why: a
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
export async function resolveBeneath(
  given: CitingScope | string,
  path: string,
  roots: CitedRoots = { own: null, others: [] },
): Promise<string | null> {
  const resolved = await resolveExplained(scopeOf(given), path, roots);
  return typeof resolved === 'string' ? resolved : null;
}

/** resolveBeneath, saying which rule refused the path (a write's refusal names it). */
async function resolveExplained(
  scope: CitingScope,
  path: string,
  roots: CitedRoots,
): Promise<string | Refused> {
  const root = resolve(scope.root);
  const real = await realRoot(root);
  const absolute = resolve(root, path);
  const rest = inside(root, absolute) ?? inside(real, absolute);
  if (rest === null) return { refused: isAbsolute(path) ? 'absolute' : 'leaves' };
  const parts = rest.split(sep).filter((p) => p !== '');
  // The components walked so far, under the root's realpath, with no symlink among them.
  const walked: string[] = [];
  let links = 0;
  while (parts.length > 0) {
    const part = parts.shift()!;
    if (walked.length === 0 && offLimits(part)) return { refused: 'own' };
    // Nothing in a directory this project may not cite (another project's) is looked at, so
    // what lies there cannot change the answer.
    if (!mayEnter(roots, [...walked, part])) return { refused: 'unlisted' };
    const next = join(real, ...walked, part);
    let info: Stats;
    try {
      info = await scope.lstat(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      walked.push(part, ...parts);
      break;
    }
    if (!info.isSymbolicLink()) {
      walked.push(part);
      continue;
    }
    if (++links > MAX_SYMLINKS) throw new Error(`more than ${MAX_SYMLINKS} symlinks`);
    const target = resolve(join(real, ...walked), await scope.readlink(next));
    // An absolute target may name the root by the path it was given (a symlinked root).
    const within = inside(root, target) ?? inside(real, target);
    if (within === null) return { refused: 'link' };
    parts.unshift(...within.split(sep).filter((p) => p !== ''));
    walked.length = 0;
  }
  return mayCite(roots, walked) ? join(real, ...walked) : { refused: 'unlisted' };
}

const keyOf = (part: string): string => (FOLDS_CASE ? part.toLowerCase() : part);

/** `path` is `dir` or lies under it (components, compared as the file system names them). */
function under(path: readonly string[], dir: readonly string[]): boolean {
  return dir.length <= path.length && dir.every((d, i) => keyOf(d) === keyOf(path[i]!));
}

function sameDir(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && under(a, b);
}

/**
 * Whether a project may cite `path` (components under the data root). The deepest listed
 * directory holding it decides: the path is citable when the project lists that directory
 * (two projects listing the same one share it); under no listed directory, when the project
 * lists none (DECISION below). A project that lists directories cites nothing outside them.
 *
 * DECISION (stop 32): a project that lists no `cites:` may cite the data root less every
 * directory another project lists. Why not nothing until listed: every item written before
 * with a local citation would read `unknown` and be held back from find and query until its
 * owner edits YAML, and a project fed over HTTP has no standing-queries file to list in (the
 * file needs sources and queries); the README's citations (`runbook.md` at the root) keep
 * working. What it costs: files no project lists stay open to every project that lists
 * nothing — today's exposure, closed project by project as each lists its directories; a
 * project that lists them is shielded from every other project, listing or not.
 */
function mayCite(roots: CitedRoots, path: readonly string[]): boolean {
  let deepest: readonly string[] | null = null;
  for (const dir of [...(roots.own ?? []), ...roots.others])
    if (under(path, dir) && (deepest === null || dir.length > deepest.length)) deepest = dir;
  if (deepest === null) return roots.own === null;
  return roots.own !== null && roots.own.some((dir) => sameDir(dir, deepest));
}

/** Whether a walk may look at `path`: it may be cited, or it leads to a directory the project lists. */
function mayEnter(roots: CitedRoots, path: readonly string[]): boolean {
  return (
    mayCite(roots, path) ||
    (roots.own ?? []).some((dir) => dir.length > path.length && under(dir, path))
  );
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
async function readConfined(
  scope: CitingScope,
  path: string,
  resolved: string,
  roots: CitedRoots,
): Promise<{ bytes: Buffer; stats: Stats } | null> {
  return readRegular(resolved, async (opened, fd) => {
    const held = await heldPath(fd);
    if (held !== null) {
      const real = await realRoot(resolve(scope.root));
      const rest = inside(real, held);
      if (rest === null || rest === '') return false;
      const parts = rest.split(sep);
      return !offLimits(parts[0]!) && mayCite(roots, parts);
    }
    // Looked at afresh, not through the answer's remembered components: the file may have moved.
    const again = await resolveBeneath(scope.root, path, roots).catch(() => null);
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
): Promise<{ bytes: Buffer; stats: Stats } | null> {
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
      return { bytes: buffer.subarray(0, length), stats: now };
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
