import { readFileSync } from 'node:fs';

/**
 * Header fields SQLite advances on every install into the live file (install-store.ts): the
 * file change counter (offset 24) and its copy, the version-valid-for number (92), and the
 * schema cookie (40), each 4 bytes. They count installs, not rows: the backup API sets the
 * cookie to the old one + 1 so that every open connection reloads its schema, and each commit
 * sets the counter to the old one + 1.
 */
const INSTALL_COUNTERS = [24, 40, 92] as const;

/**
 * The bytes of the store at `path` that a rebuild determines: the file as it is, with the
 * install counters zeroed. Two rebuilds of one log give equal canonical bytes, whatever the
 * store held before and however often it was installed.
 */
export function canonicalBytes(path: string): Buffer {
  const bytes = readFileSync(path);
  for (const offset of INSTALL_COUNTERS)
    if (bytes.length >= offset + 4) bytes.fill(0, offset, offset + 4);
  return bytes;
}
