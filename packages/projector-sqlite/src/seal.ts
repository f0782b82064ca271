import { renameSync } from 'node:fs';
import { commitPending } from './apply-events.js';
import { writeCanonicalCopy } from './canonical-copy.js';
import { buildFtsScratch, ftsIsBuilt } from './fts-build.js';
import { openLive, type ItemStoreHandle } from './handle.js';
import { fsyncDirectory, removeDatabaseFiles } from './store-files.js';

/**
 * Makes the live file canonical: builds node_fts afresh if nodes changed, builds the canonical
 * copy beside the file, fsyncs it, renames it over `items.sqlite`, fsyncs the directory, and
 * reopens. O(size of the store) each time, so a seal with nothing new does nothing.
 *
 * Crash safety: the live file says sealed = '0' from its first write after a seal (same
 * transaction as that write) until a copy with sealed = '1' replaces it; init re-seals a file
 * that says '0'. A crash before the rename leaves the old live file and a stray copy, which
 * init deletes.
 */
export function sealStore(handle: ItemStoreHandle, version: number): void {
  commitPending(handle);
  if (!handle.dirty) return;
  const { live, sealing, ftsScratch } = handle.files;
  try {
    // Most appends (closed gates: chunk + gate) add no node: their seal skips the FTS build,
    // the costliest part, and copies the index the last seal built.
    const ftsSource = ftsIsBuilt(handle.db) ? live : ftsScratch;
    if (ftsSource === ftsScratch) buildFtsScratch(live, ftsScratch);
    writeCanonicalCopy(live, ftsSource, sealing, version);
  } catch (error) {
    removeDatabaseFiles(sealing);
    throw error;
  } finally {
    removeDatabaseFiles(ftsScratch);
  }
  handle.db.close();
  try {
    renameSync(sealing, live);
    fsyncDirectory(handle.stateDir);
  } finally {
    Object.assign(handle, openLive(live));
  }
  handle.dirty = false;
}
