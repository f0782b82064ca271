import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** A file as `stat` saw it: what says "not touched since" without reading a byte of it. */
const fileStamp = z.object({
  path: z.string(),
  size: z.number(),
  mtime_ms: z.number(),
  ino: z.number(),
});
export type FileStamp = z.infer<typeof fileStamp>;

/**
 * What a record source read as when last judged: the files it was read from, stamped, and the
 * grounding of each cited chunk read then. `files` empty: none of the project's sources yielded
 * it (a deleted session), so it is looked up by name again but never by reading everything.
 */
const sourceEntry = z.object({
  files: z.array(fileStamp),
  grounding: z.record(z.string(), z.enum(['unchanged', 'changed'])),
  /**
   * What cited spans read as (spanDigest, by citedKey) under these same stamps: recall of a
   * confirmed line compares them with its confirmation without re-reading or re-tokenizing the
   * source. Dropped with the stamps: another stamp, another entry.
   */
  digests: z.record(z.string(), z.string()).optional(),
  /**
   * Only with `files` empty: a digest of the files the project's sources listed when the source
   * was judged gone (names only). Another listing (a session file back, or a new one) has it
   * looked for again, by one scan when no name names it; the same listing keeps it gone unread.
   */
  listing: z.string().optional(),
});
export type SourceEntry = z.infer<typeof sourceEntry>;

const cacheFile = z.object({ version: z.literal(1), sources: z.record(z.string(), sourceEntry) });

/** How the cache file stood when it was read: another stamp means another file or other bytes. */
interface CacheStamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * The last cache read or written per path, with the file's stamp then. Why: every query of a
 * project with standing queries judges its cited sources, and reading and parsing this file was
 * ~0.4 ms of each (issue 15 target 3); the file changes only when a source moved. A save writes
 * a new file (a new inode, read once by the next load) and any
 * other write moves mtime/ctime, so an unchanged stamp is the same bytes.
 */
const lastRead = new Map<
  string,
  { stamp: CacheStamp; sources: ReadonlyMap<string, SourceEntry> }
>();

/**
 * Sync on purpose: one stat of a small local file, ~10 µs, where fs.promises.stat cost ~0.3 ms
 * of CPU per call on the server's thread (CPU profile of 1,000 queries, issue 15 target 3).
 */
function stampOf(path: string): CacheStamp | null {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return null;
    const { ino, size, mtimeMs, ctimeMs } = info;
    return { ino, size, mtimeMs, ctimeMs };
  } catch {
    return null; // unreadable: an empty cache, as a failed read is
  }
}

function sameStamp(a: CacheStamp, b: CacheStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * The per-project cache of cited sources' stamps and groundings (`<state>/cache/grounding/`):
 * derived, droppable, rebuilt by the next query. Trigger: missing, unreadable or of another
 * shape. Why: a cache is never the truth, the transcript is. Outcome: empty, every source read
 * once again. Read once per change of the file: while its stamp holds, the last read is
 * answered (a new Map each call, so a caller's changes stay its own until it saves them).
 */
export async function loadGroundingCache(path: string): Promise<Map<string, SourceEntry>> {
  const stamp = stampOf(path);
  if (stamp === null) {
    lastRead.delete(path);
    return new Map();
  }
  const last = lastRead.get(path);
  if (last && sameStamp(last.stamp, stamp)) return new Map(last.sources);
  let sources = new Map<string, SourceEntry>();
  try {
    const parsed = cacheFile.safeParse(JSON.parse(await readFile(path, 'utf8')));
    if (parsed.success) sources = new Map(Object.entries(parsed.data.sources));
  } catch {
    // Unreadable or not JSON: empty, as above.
  }
  // Stat'ed before the read: a write landing between them leaves the older stamp, read again next time.
  lastRead.set(path, { stamp, sources: new Map(sources) });
  return sources;
}

/**
 * Written whole to a temporary file and renamed: a reader never sees half a cache. The
 * temporary name is the save's own, so two saves at once (two requests of one server) never
 * write one file; the last rename wins, each whole.
 */
export async function saveGroundingCache(
  path: string,
  sources: ReadonlyMap<string, SourceEntry>,
): Promise<void> {
  const sorted = Object.fromEntries([...sources].sort(([a], [b]) => (a < b ? -1 : 1)));
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(tmp, `${JSON.stringify({ version: 1, sources: sorted })}\n`);
  await rename(tmp, path);
}
