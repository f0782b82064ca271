import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceCheck } from '@mem/core';

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
 */
export async function checkSource(item: CitedSource, root: string): Promise<SourceCheck | null> {
  if (item.source_uri === null || item.source_sha256 === null) return null;
  const path = localPath(item.source_uri, root);
  if (path === null) return null;
  const bytes = await readRegular(path);
  // Gone, unreadable, not a regular file or too large: present-but-unreadable, never "changed".
  if (bytes === null) return 'unreadable';
  const digest = createHash('sha256').update(bytes).digest('hex');
  return digest === item.source_sha256 ? 'unchanged' : 'changed';
}

/**
 * The bytes of a regular file of at most MAX_SOURCE_BYTES, or null. Trigger: a FIFO, a socket,
 * a device (/dev/zero) or a directory cited by path. Why: reading a FIFO with no writer waits
 * forever on one of libuv's four threadpool threads, so a few such reads hang orient and stall
 * every other file read of `mem serve`. Outcome: null. The path is stat'ed before it is opened
 * (opening a device can act on it), opened non-blocking (a FIFO opens without waiting for a
 * writer), and its descriptor fstat'ed again, so a path swapped in between is still refused;
 * the read stops one byte past the size fstat gave, so a file that grows meanwhile is refused.
 */
async function readRegular(path: string): Promise<Buffer | null> {
  try {
    const before = await stat(path);
    if (!before.isFile() || before.size > MAX_SOURCE_BYTES) return null;
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const now = await handle.stat();
      if (!now.isFile() || now.size > MAX_SOURCE_BYTES) return null;
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

function localPath(uri: string, root: string): string | null {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      return null;
    }
  }
  // A scheme (`https:`, `s3:`), but not a Windows drive letter.
  if (/^[a-z][a-z0-9+.-]+:/i.test(uri)) return null;
  return isAbsolute(uri) ? uri : resolve(root, uri);
}
