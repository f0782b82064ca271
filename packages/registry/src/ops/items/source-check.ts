import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceCheck } from '@mem/core';

/** What an item's citation reads: a path or URI and the digest it had when written. */
export interface CitedSource {
  source_uri: string | null;
  source_sha256: string | null;
}

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
  try {
    const digest = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    return digest === item.source_sha256 ? 'unchanged' : 'changed';
  } catch {
    // Gone, unreadable or a directory: present-but-unreadable, never "changed".
    return 'unreadable';
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
