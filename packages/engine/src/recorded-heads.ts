import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { ioError, makePrivateDirectory, MemError, PRIVATE_FILE_MODE, sha256Hex } from '@mem/core';
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
 *
 * `chain-heads/<project>.head` is one JSON line, `{"seq", "head", "by", "check"}`, `check` the
 * sha256 of the other three: the file is rewritten in place (one write at offset 0), not
 * written beside and renamed over, so a reader in another process can read it half rewritten;
 * it then finds the check wrong and reads again, and never trusts a head it did not see whole.
 * Why in place: the rename was ~0.13 ms CPU of every item write quiet and several times that
 * under load (stop 35). Until stop 35 the file was `chain-heads/<project>.json`, without the
 * check (renamed into place, so always whole): it is read when there is no `.head`, and removed
 * when the `.head` is first written.
 */
function headFile(stateDir: string, project: string): string {
  return join(stateDir, 'chain-heads', `${project}.head`);
}

/** The file a root written before stop 35 holds the head in. */
function legacyHeadFile(stateDir: string, project: string): string {
  return join(stateDir, 'chain-heads', `${project}.json`);
}

/** How many times a record that does not check is read again before it is reported. */
const REREADS = 7;

/** The head recorded for `project`, or null when no catch-up has recorded one. */
export function readRecordedHead(stateDir: string, project: string): RecordedHead | null {
  const file = headFile(stateDir, project);
  for (let attempt = 0; ; attempt++) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return readLegacyHead(stateDir, project);
      throw new MemError('IO_FAILED', `cannot read ${file}: ${(error as Error).message}`, { file });
    }
    const head = parseRecord(text, true);
    if (head) return head;
    // Trigger: the record does not parse or its check is wrong. Why: the writer may be
    // rewriting it in place right now (a few hundred bytes, one write). Outcome: read again
    // after a pause (1, 2, 4 … 64 ms, 127 in all); a record still wrong then was damaged, not torn.
    if (attempt === REREADS) throw invalidRecord(file, true);
    pause(2 ** attempt);
  }
}

/** A head file of a root written before stop 35 (renamed into place: never half written). */
function readLegacyHead(stateDir: string, project: string): RecordedHead | null {
  const file = legacyHeadFile(stateDir, project);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MemError('IO_FAILED', `cannot read ${file}: ${(error as Error).message}`, { file });
  }
  const head = parseRecord(text, false);
  if (!head) throw invalidRecord(file, false);
  return head;
}

/** The record `text` holds, or null when it is not one (or, `checked`, when its check is wrong). */
function parseRecord(text: string, checked: boolean): RecordedHead | null {
  let parsed: Partial<RecordedHead & { check: string }> | null;
  try {
    parsed = JSON.parse(text) as Partial<RecordedHead & { check: string }>;
  } catch {
    return null;
  }
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    !Number.isSafeInteger(parsed.seq) ||
    typeof parsed.head !== 'string' ||
    typeof parsed.by !== 'string'
  )
    return null;
  const head = { seq: parsed.seq!, head: parsed.head, by: parsed.by };
  if (checked && parsed.check !== checkOf(head)) return null;
  return head;
}

function checkOf(head: RecordedHead): string {
  return sha256Hex(`${head.seq}\n${head.head}\n${head.by}`);
}

function invalidRecord(file: string, checked: boolean): MemError {
  return new MemError(
    'CONFIG_INVALID',
    `${file}: expected {"seq": N, "head": "<sha256>", "by": "<projections>"${checked ? ', "check": "<sha256 of the three>"' : ''}}; delete it and run \`mem rebuild --from-log\``,
    { file },
  );
}

/** Sleeps `ms` milliseconds without giving the event loop back (a reread is rare and short). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Records `head` for `project`. Runs after every catch-up that moved a head: the file is
 * opened, rewritten from offset 0 (padded with spaces to at least its old length, so no byte
 * of an older record is left after the new one) and closed; the first time (no file yet) it
 * is written beside and renamed into place, and the `.json` of a root written before stop 35
 * removed after it.
 */
export function writeRecordedHead(stateDir: string, project: string, head: RecordedHead): void {
  const file = headFile(stateDir, project);
  const record = { seq: head.seq, head: head.head, by: head.by };
  const text = `${JSON.stringify({ ...record, check: checkOf(record) })}\n`;
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError('write', file, error);
    createRecordedHead(stateDir, project, text);
    return;
  }
  try {
    const bytes = Buffer.from(text);
    const size = fstatSync(fd).size;
    const padded =
      bytes.length >= size
        ? bytes
        : Buffer.concat([
            bytes.subarray(0, bytes.length - 1),
            Buffer.alloc(size - bytes.length, ' '),
            bytes.subarray(bytes.length - 1),
          ]);
    writeFully(fd, padded);
  } catch (error) {
    throw ioError('write', file, error);
  } finally {
    closeSync(fd);
  }
}

/** One write from offset 0, continued if the kernel took fewer bytes. */
function writeFully(fd: number, bytes: Buffer): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, done);
}

/** The first record of a project: written beside, renamed into place, the pre-stop-35 file dropped. */
function createRecordedHead(stateDir: string, project: string, text: string): void {
  const file = headFile(stateDir, project);
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
  const legacy = legacyHeadFile(stateDir, project);
  try {
    rmSync(legacy, { force: true });
  } catch (error) {
    throw ioError('remove', legacy, error);
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
