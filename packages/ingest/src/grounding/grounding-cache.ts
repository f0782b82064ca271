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
});
export type SourceEntry = z.infer<typeof sourceEntry>;

const cacheFile = z.object({ version: z.literal(1), sources: z.record(z.string(), sourceEntry) });

/**
 * The per-project cache of cited sources' stamps and groundings (`<state>/cache/grounding/`):
 * derived, droppable, rebuilt by the next query. Trigger: missing, unreadable or of another
 * shape. Why: a cache is never the truth, the transcript is. Outcome: empty, every source read
 * once again.
 */
export async function loadGroundingCache(path: string): Promise<Map<string, SourceEntry>> {
  try {
    const parsed = cacheFile.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return new Map(parsed.success ? Object.entries(parsed.data.sources) : []);
  } catch {
    return new Map();
  }
}

/** Written whole to a temporary file and renamed: a reader never sees half a cache. */
export async function saveGroundingCache(
  path: string,
  sources: ReadonlyMap<string, SourceEntry>,
): Promise<void> {
  const sorted = Object.fromEntries([...sources].sort(([a], [b]) => (a < b ? -1 : 1)));
  const tmp = `${path}.${process.pid}.tmp`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(tmp, `${JSON.stringify({ version: 1, sources: sorted })}\n`);
  await rename(tmp, path);
}
