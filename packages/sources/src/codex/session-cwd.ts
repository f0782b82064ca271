import { isObject, str } from '../json.js';
import { fileBlocks, splitLines } from '../lines.js';
import { parseLine } from '../parse-line.js';
import { StatsCollector } from '../stats.js';

/** A `session_meta` line is short; one longer than this is not read (newer CLIs embed instructions, a few KiB). */
const MAX_FIRST_LINE_BYTES = 1024 * 1024;
const BLOCK_BYTES = 16 * 1024;

/**
 * The directory a rollout's session started in: its first line's `session_meta.payload.cwd`,
 * read with the readers' own line splitter and parser and nothing after it. Null when the
 * first line is not a readable `session_meta` with a cwd (the old format wrote none, a file may
 * be empty or cut). I/O failures are the readers' NOT_FOUND / IO_FAILED.
 */
export async function rolloutSessionCwd(path: string): Promise<string | null> {
  const lines = splitLines(fileBlocks(path, BLOCK_BYTES), path, new StatsCollector(), {
    maxLineBytes: MAX_FIRST_LINE_BYTES,
    finalLine: 'yield',
  });
  // Returning from the loop closes the file: only the first line's blocks are read.
  for await (const first of lines)
    return first.line === 1 ? metaCwd(parseLine(first.text).values[0]) : null;
  return null;
}

function metaCwd(value: unknown): string | null {
  if (!isObject(value) || value.type !== 'session_meta' || !isObject(value.payload)) return null;
  const cwd = str(value.payload.cwd);
  return cwd === undefined || cwd === '' ? null : cwd;
}

/**
 * True when `cwd` is `root` or a directory under it. Compared as written, with a trailing
 * separator ignored, `/` or `\` alike (a Windows session's cwd is `C:\…`): no path is resolved,
 * since the session ran on another machine as often as on this one.
 */
export function cwdWithin(cwd: string, root: string): boolean {
  const trim = (p: string) => (p.length > 1 ? p.replace(/[/\\]+$/u, '') : p);
  const [c, r] = [trim(cwd), trim(root)];
  if (c === r) return true;
  return (
    c.startsWith(r) &&
    (r.endsWith('/') || r.endsWith('\\') || c[r.length] === '/' || c[r.length] === '\\')
  );
}
