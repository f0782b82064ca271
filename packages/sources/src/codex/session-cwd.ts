import { open } from 'node:fs/promises';
import { MemError } from '@mem/core';
import { isObject, str } from '../json.js';

/** A `session_meta` line is short; one that has not ended by here is not read further (newer CLIs embed instructions, a few KiB). */
const MAX_FIRST_LINE_BYTES = 1024 * 1024;
const BLOCK_BYTES = 16 * 1024;

/**
 * The directory a rollout's session started in: its first line's `session_meta.payload.cwd`.
 * Null when the first line is not a readable `session_meta` with a cwd (the old format wrote
 * none, a file may be empty or cut). Reads only the first line, never the whole file.
 */
export async function rolloutSessionCwd(path: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    throw new MemError('IO_FAILED', `cannot open transcript ${path}`, { path }, { cause });
  }
  try {
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const block = Buffer.alloc(BLOCK_BYTES);
      const { bytesRead } = await handle.read(block, 0, BLOCK_BYTES, total);
      if (bytesRead === 0) break;
      const end = block.subarray(0, bytesRead).indexOf(0x0a);
      parts.push(block.subarray(0, end === -1 ? bytesRead : end));
      total += bytesRead;
      if (end !== -1) break;
      if (total >= MAX_FIRST_LINE_BYTES) return null;
    }
    return metaCwd(Buffer.concat(parts).toString('utf8'));
  } catch (cause) {
    throw new MemError('IO_FAILED', `cannot read transcript ${path}`, { path }, { cause });
  } finally {
    await handle.close();
  }
}

function metaCwd(line: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
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
