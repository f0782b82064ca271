import { statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import { qwenTokenizer, type SourceRecord, type Tokenizer } from '@mem/chunk';
import { isMemError, sha256Hex } from '@mem/core';
import { findJsonlFiles, isRolloutFile, sourceForPath } from '@mem/sources';
import type { ResolvedSource, SourceKind, StandingQueries } from '../standing-queries.js';
import { transcriptSource } from '../transcripts.js';
import {
  loadGroundingCache,
  saveGroundingCache,
  type FileStamp,
  type SourceEntry,
} from './grounding-cache.js';
import {
  citedKey,
  groundSpan,
  spanDigest,
  type CitedChunk,
  type Grounding,
} from './source-grounding.js';

/** Everything the bounded check does to the file system: a seam a test counts through. */
export interface GroundingIo {
  /** The file's stamp, or null when it is gone or cannot be stat'ed. */
  stat(path: string): Promise<FileStamp | null>;
  /** The records of `files`, read as one source of `kind` reads them (plan order, one dedup). */
  records(kind: SourceKind, files: readonly string[]): AsyncIterable<SourceRecord>;
  /** The JSONL files a configured source would read: names only, no file opened. */
  list(source: ResolvedSource): Promise<string[]>;
  /** Every record of a configured source: the last resort when no file name names a source. */
  scan(source: ResolvedSource): AsyncIterable<SourceRecord>;
}

export const fsGroundingIo: GroundingIo = {
  // Sync on purpose: one stat of a local file is ~10 µs, where fs.promises.stat cost ~0.3 ms of
  // the server's CPU per query under load (profile of mem serve at 175 req/s, issue 15 target 3).
  stat: (path) => {
    try {
      const info = statSync(path, { throwIfNoEntry: false });
      return Promise.resolve(
        info ? { path, size: info.size, mtime_ms: info.mtimeMs, ino: info.ino } : null,
      );
    } catch {
      return Promise.resolve(null);
    }
  },
  records: (kind, files) => sourceForPath(files, kind),
  list: async (source) => {
    if (source.files) return [...source.files];
    try {
      return await findJsonlFiles(source.dir!);
    } catch (error) {
      // A source directory that is gone holds no session: its citations read as gone.
      if (isMemError(error) && error.code === 'NOT_FOUND') return [];
      throw error;
    }
  },
  scan: (source) => transcriptSource(source),
};

export interface CitedSourcesOptions {
  /** Where the stamps and groundings of this project's cited sources are kept between queries. */
  cachePath: string;
  io?: GroundingIo;
  /** The tokenizer ingest packs with; asked for only when a span is re-read. */
  tokenizer?: () => Tokenizer;
}

/**
 * The grounding of cited chunks, bounded by what is cited (issue 13 §4): per distinct source,
 * one stat of each file it was read from; only when a stamp moved (or a chunk was never judged)
 * are its records read, up to the furthest cited span's end and not past it, and each cited
 * span re-chunked (checkGrounding's rule: a grown session is not stale). A source's files are
 * found once, by name (a Claude session's `<id>.jsonl` and `<id>/…`, a pi session's stem, a
 * Codex rollout's `rollout-<time>-<id>.jsonl`), and
 * remembered; a source no file name names is found by one read of its kind's sources, once.
 * Only kinds the project's standing queries read are judged (a posted transcript never was
 * on this disk).
 */
export async function checkCitedSources(
  config: StandingQueries,
  cited: readonly CitedChunk[],
  options: CitedSourcesOptions,
): Promise<Map<string, Grounding>> {
  const io = options.io ?? fsGroundingIo;
  const bySource = new Map<string, CitedChunk[]>();
  for (const chunk of cited)
    bySource.set(chunk.source, [...(bySource.get(chunk.source) ?? []), chunk]);
  const result = new Map<string, Grounding>();
  if (bySource.size === 0) return result;
  const cache = await loadGroundingCache(options.cachePath);
  let dirty = false;
  for (const [source, chunks] of [...bySource].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const kind = source.split(':', 1)[0] as SourceKind;
    const configured = config.sources.filter((s) => s.kind === kind);
    if (configured.length === 0) continue;
    const before = cache.get(source);
    const entry = await judgeSource(io, configured, source, chunks, before, options.tokenizer);
    for (const chunk of chunks)
      result.set(citedKey(chunk), entry.grounding[citedKey(chunk)] ?? 'gone');
    if (entry !== before) {
      cache.set(source, entry);
      dirty = true;
    }
  }
  if (dirty) await saveGroundingCache(options.cachePath, cache);
  return result;
}

/**
 * What each cited chunk's span reads as now (spanDigest), keyed by citedKey; a chunk whose
 * source is gone, cut short or of a kind the project does not read has no entry. It runs when a
 * line is confirmed (no cache: what is recorded is read now), and for the lines recall found
 * changed that a person confirmed (bounded by the page). With `cachePath` (recall), digests are
 * kept in the source's grounding-cache entry while its files' stamps hold: a confirmed line
 * answered again costs a stat per file, not a re-read and the tokenizer's load (~1.1 s CPU).
 */
export async function citedSpanDigests(
  config: StandingQueries,
  cited: readonly CitedChunk[],
  options: { io?: GroundingIo; tokenizer?: () => Tokenizer; cachePath?: string } = {},
): Promise<Map<string, string>> {
  const io = options.io ?? fsGroundingIo;
  const bySource = new Map<string, CitedChunk[]>();
  for (const chunk of cited)
    bySource.set(chunk.source, [...(bySource.get(chunk.source) ?? []), chunk]);
  const result = new Map<string, string>();
  const cache =
    options.cachePath !== undefined ? await loadGroundingCache(options.cachePath) : undefined;
  let dirty = false;
  let tk: Tokenizer | undefined;
  for (const [source, chunks] of [...bySource].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const configured = config.sources.filter((s) => s.kind === source.split(':', 1)[0]);
    if (configured.length === 0) continue;
    // The cached entry answers while its files' stamps are the same as when it was judged.
    const entry = cache?.get(source);
    const held =
      entry !== undefined && entry.files.length > 0 ? await stillStamped(io, entry) : false;
    const kept = held ? entry!.digests : undefined;
    if (kept !== undefined && chunks.every((c) => kept[citedKey(c)] !== undefined)) {
      for (const c of chunks) result.set(citedKey(c), kept[citedKey(c)]!);
      continue;
    }
    let paths = await byName(io, configured, source);
    if (paths.length === 0) paths = await byScan(io, configured, source);
    if (paths.length === 0) continue;
    const own = await recordsOf(io, source, paths, Math.max(...chunks.map((c) => c.end)));
    if (own.length === 0) continue;
    tk ??= (options.tokenizer ?? qwenTokenizer)();
    const read: Record<string, string> = {};
    for (const chunk of chunks) {
      const digest = await spanDigest(own, chunk, tk);
      if (digest !== null) {
        result.set(citedKey(chunk), digest);
        read[citedKey(chunk)] = digest;
      }
    }
    // Kept only when the stamps held before the read and still do after it.
    if (cache !== undefined && held && (await stillStamped(io, entry!))) {
      cache.set(source, { ...entry!, digests: { ...(entry!.digests ?? {}), ...read } });
      dirty = true;
    }
  }
  if (dirty) await saveGroundingCache(options.cachePath!, cache!);
  return result;
}

/** Whether every file of a cached entry still has the stamp it was judged under. */
async function stillStamped(io: GroundingIo, entry: SourceEntry): Promise<boolean> {
  const stamps = await stampsOf(
    io,
    entry.files.map((f) => f.path),
  );
  return stamps !== null && sameStamps(entry.files, stamps);
}

/** The source's entry now: `before` itself when its stamps and groundings still answer. */
async function judgeSource(
  io: GroundingIo,
  configured: readonly ResolvedSource[],
  source: string,
  chunks: readonly CitedChunk[],
  cached: SourceEntry | undefined,
  tokenizer: (() => Tokenizer) | undefined,
): Promise<SourceEntry> {
  // A cache naming files no configured source reads (a data root copied or re-pointed) is not this project's.
  const before = cached?.files.every((f) => configured.some((s) => reads(s, f.path)))
    ? cached
    : undefined;
  // Gone, with the listing it was judged under: while the sources list the same files, the
  // entry answers unread; another listing (the file back) has the source looked for again.
  let listed: string | undefined;
  const listing = async () => (listed ??= await listingOf(io, configured));
  const goneNow = async (): Promise<SourceEntry> => {
    const now = await listing();
    return before?.files.length === 0 && before.listing === now
      ? before
      : { files: [], grounding: {}, listing: now };
  };
  let paths = before?.files.map((f) => f.path) ?? [];
  let named = false;
  if (paths.length === 0) {
    paths = await byName(io, configured, source);
    named = paths.length > 0;
  }
  if (
    paths.length === 0 &&
    (before === undefined || (before.files.length === 0 && before.listing !== (await listing())))
  )
    paths = await byScan(io, configured, source);
  if (paths.length === 0) return goneNow();
  let stamps = await stampsOf(io, paths);
  if (stamps === null) return goneNow();
  const same = before !== undefined && sameStamps(before.files, stamps);
  if (same && chunks.every((c) => before.grounding[citedKey(c)] !== undefined)) return before;

  const end = Math.max(...chunks.map((c) => c.end));
  let own = await recordsOf(io, source, paths, end);
  if (own.length === 0 && named && before === undefined) {
    // A file whose name held the id but not the session: find it by its records, once.
    paths = await byScan(io, configured, source);
    stamps = paths.length > 0 ? await stampsOf(io, paths) : null;
    if (stamps === null) return goneNow();
    own = await recordsOf(io, source, paths, end);
  }
  if (own.length === 0) return goneNow();
  const tk = (tokenizer ?? qwenTokenizer)();
  const grounding: SourceEntry['grounding'] = same ? { ...before.grounding } : {};
  for (const chunk of chunks) {
    const found = await groundSpan(own, chunk, tk);
    if (found !== 'gone') grounding[citedKey(chunk)] = found;
  }
  // Digests read under the same stamps still hold; under others they are dropped.
  return same && before.digests !== undefined
    ? { files: stamps, grounding, digests: before.digests }
    : { files: stamps, grounding };
}

/** A digest of every file the configured sources list now (names only, no file opened). */
async function listingOf(io: GroundingIo, configured: readonly ResolvedSource[]): Promise<string> {
  const files: string[] = [];
  for (const s of configured) files.push(...(await io.list(s)));
  return sha256Hex([...new Set(files)].sort().join('\n'));
}

/** Every file's stamp, or null when one of them is gone. */
async function stampsOf(io: GroundingIo, paths: readonly string[]): Promise<FileStamp[] | null> {
  const stamps = await Promise.all(paths.map((p) => io.stat(p)));
  return stamps.some((s) => s === null) ? null : (stamps as FileStamp[]);
}

/** The source's records from ordinal 0 up to `end`: records past the furthest cited span never change a verdict. */
async function recordsOf(
  io: GroundingIo,
  source: string,
  paths: readonly string[],
  end: number,
): Promise<SourceRecord[]> {
  const own: SourceRecord[] = [];
  for await (const record of io.records(source.split(':', 1)[0] as SourceKind, paths)) {
    if (record.provenance.source !== source) continue;
    own.push(record);
    if (own.length >= end) break;
  }
  return own;
}

/** True when `path` is one a configured source reads: one of its files, or under its directory. */
function reads(source: ResolvedSource, path: string): boolean {
  if (source.files) return source.files.includes(path);
  return (
    source.dir !== undefined &&
    path.startsWith(source.dir.endsWith(sep) ? source.dir : `${source.dir}${sep}`)
  );
}

function sameStamps(a: readonly FileStamp[], b: readonly FileStamp[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (f, i) =>
        f.path === b[i]!.path &&
        f.size === b[i]!.size &&
        f.mtime_ms === b[i]!.mtime_ms &&
        f.ino === b[i]!.ino,
    )
  );
}

/** The files whose names name the source: no file is opened. */
async function byName(
  io: GroundingIo,
  configured: readonly ResolvedSource[],
  source: string,
): Promise<string[]> {
  const [kind, id] = [source.split(':', 1)[0], source.slice(source.indexOf(':') + 1)];
  if (kind !== 'claude' && kind !== 'pi' && kind !== 'codex') return [];
  // A file named for the session or, for Claude, under its `<id>/` tree; a Codex rollout is
  // `rollout-<time>-<session id>.jsonl` (the id its session_meta gives the source).
  const named = (path: string) =>
    basename(path) === `${id}.jsonl` ||
    (kind === 'codex' &&
      id.length >= 16 &&
      isRolloutFile(path) &&
      basename(path).endsWith(`-${id}.jsonl`)) ||
    // A session uuid is long enough that a name holding it is that session's (`ccviewer-<id>.jsonl`).
    (kind === 'claude' && id.length >= 16 && basename(path).includes(id)) ||
    (kind === 'claude' && path.includes(`${sep}${id}${sep}`));
  const found: string[] = [];
  for (const s of configured) found.push(...(await io.list(s)).filter(named));
  return [...new Set(found)].sort();
}

/** The files that yield the source's records, by reading its kind's sources whole: once per source. */
async function byScan(
  io: GroundingIo,
  configured: readonly ResolvedSource[],
  source: string,
): Promise<string[]> {
  const found = new Set<string>();
  for (const s of configured) {
    try {
      for await (const record of io.scan(s))
        if (record.provenance.source === source && record.provenance.file)
          found.add(record.provenance.file);
    } catch (error) {
      if (!(isMemError(error) && error.code === 'NOT_FOUND')) throw error;
    }
  }
  return [...found].sort();
}
