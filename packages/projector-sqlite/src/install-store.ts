import Database from 'better-sqlite3';
import { SCRATCH_CACHE_KIB, checkpointTruncate, openWritable } from './open-database.js';

/**
 * Makes the database at `built` (a canonical copy, or an empty store) the content of the live
 * store at `live`, in place: SQLite's online backup copies every page of `built` into `live`
 * in one write transaction through `live`'s WAL, then a TRUNCATE checkpoint writes them into
 * the file, cuts it to the new size and empties the -wal.
 *
 * Why not rename `built` over `live`: in WAL mode every connection to a file shares its -wal
 * and -shm, found by name. A connection that still holds the old file (a server's read handle,
 * in this process or another) would go on reading the old inode, or share one wal-index with
 * the new file and read pages of the wrong database. Written through SQLite, the file keeps
 * its inode: every connection sees the new rows in its next read transaction, and the schema
 * cookie the backup advances makes each one reload its schema.
 * Why not switch the file out of WAL for the rename: SQLite refuses while any other
 * connection has it open, and a server always has.
 *
 * Crash safety: the backup commits once, at its end; a process killed before that leaves
 * uncommitted frames that recovery ignores (the old store), after it a committed WAL that
 * recovery replays (the new one). Never a mix.
 *
 * No byte of the old store stays behind: each page of `live` is overwritten or, past the new
 * size, cut off by the checkpoint, and the -wal holding both versions is truncated to zero.
 * The header's change counter and schema cookie are the only bytes that then differ from
 * `built` (SQLite advances them; see canonical-bytes.ts).
 */
export async function installStore(built: string, live: string): Promise<void> {
  const source = new Database(built, { readonly: true, fileMustExist: true });
  try {
    source.pragma(`cache_size = -${SCRATCH_CACHE_KIB}`);
    // The first step copies nothing (better-sqlite3 starts at 0 pages); the progress
    // callback then asks for every remaining page in one step: no open write transaction
    // on `live` waits across turns of the event loop.
    await source.backup(live, { progress: ({ remainingPages }) => remainingPages });
  } finally {
    source.close();
  }
  const db = openWritable(live);
  try {
    checkpointTruncate(db, live);
  } finally {
    db.close();
  }
}
