import {
  closeSync,
  constants,
  fchmodSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { ioError, makePrivateDirectory, MemError, PRIVATE_FILE_MODE } from '@mem/core';
import type { ProjectionPosition } from './projector.js';

/** The furthest chain head the projections of one project recorded, and which of them did. */
export interface RecordedHead extends ProjectionPosition {
  /** The projections (or other recorder) that hold this head, for the message that names them. */
  by: string;
}

/**
 * Why a file of its own: the projections keep their positions in their own stores (SQLite,
 * pgvector, vault state), and opening all of them before every append would cost a database
 * connection (or an embedded Postgres) per write. The engine copies the furthest of them here
 * after every catch-up, under the projection lock, so the write path checks the log's tail
 * against it with one small read. Derived state like the rest of `.mem/`: gone with it.
 */
function headFile(stateDir: string, project: string): string {
  return join(stateDir, 'chain-heads', `${project}.json`);
}

/** The head recorded for `project`, or null when no catch-up has recorded one. */
export function readRecordedHead(stateDir: string, project: string): RecordedHead | null {
  const file = headFile(stateDir, project);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MemError('IO_FAILED', `cannot read ${file}: ${(error as Error).message}`, { file });
  }
  let parsed: Partial<RecordedHead> | null = null;
  try {
    parsed = JSON.parse(text) as Partial<RecordedHead>;
  } catch {
    // Reported below with the shape it should have.
  }
  if (
    !parsed ||
    !Number.isSafeInteger(parsed.seq) ||
    typeof parsed.head !== 'string' ||
    typeof parsed.by !== 'string'
  ) {
    throw new MemError(
      'CONFIG_INVALID',
      `${file}: expected {"seq": N, "head": "<sha256>", "by": "<projections>"}; delete it and run \`mem rebuild --from-log\``,
      { file },
    );
  }
  return { seq: parsed.seq!, head: parsed.head, by: parsed.by };
}

/**
 * Records `head` for `project` (write to a temporary file, then rename: readers never see half).
 * Runs after every catch-up that moved a head: one open of the temporary file (created 0600, or
 * a leftover one truncated and made 0600), and the directory made only when it is missing — the
 * mkdir, the separate create and the second open were ~0.5 ms of an add_items(100) (stop 33).
 */
export function writeRecordedHead(stateDir: string, project: string, head: RecordedHead): void {
  const file = headFile(stateDir, project);
  const text = `${JSON.stringify({ seq: head.seq, head: head.head, by: head.by })}\n`;
  try {
    writeTemporary(`${file}.tmp`, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw ioError('write', `${file}.tmp`, error);
    makePrivateDirectory(join(stateDir, 'chain-heads'));
    try {
      writeTemporary(`${file}.tmp`, text);
    } catch (again) {
      throw ioError('write', `${file}.tmp`, again);
    }
  }
  try {
    renameSync(`${file}.tmp`, file);
  } catch (error) {
    throw ioError('rename', file, error);
  }
}

/** Writes `text` to `path`, owner-only whether it created the file or found one a crash left. */
function writeTemporary(path: string, text: string): void {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
    PRIVATE_FILE_MODE,
  );
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** The furthest of the projections' positions, naming every projection at it; null when none applied anything. */
export function furthestHead(
  positions: ReadonlyMap<string, ProjectionPosition | null>,
): RecordedHead | null {
  let furthest: ProjectionPosition | null = null;
  for (const position of positions.values())
    if (position && (!furthest || position.seq > furthest.seq)) furthest = position;
  if (!furthest) return null;
  const at = furthest;
  const by = [...positions]
    .filter(([, p]) => p?.seq === at.seq)
    .map(([name]) => name)
    .sort();
  return {
    seq: at.seq,
    head: at.head,
    by: `the ${by.join(', ')} projection${by.length === 1 ? '' : 's'}`,
  };
}
