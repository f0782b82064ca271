import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, fsyncDirectory, ioError, makePrivateDirectory } from '@mem/core';
import { fsyncFile } from '@mem/log';
import type { AppendFold } from './append-fold.js';
import { ProvenanceCheck } from './provenance.js';
import { TombstoneSet, type TombstoneLine } from './tombstones/tombstone-set.js';

/*
 * A project's append fold saved under `.mem/append-folds/<project>.fold`, so a process's first
 * append of memory text reads the log's events after the saved head, not the whole log (11.6 to
 * 16.8 s at a million events). Derived state: it is only used after the log is read from its
 * seq with its hash as the expected `prev` (append-fold.ts), so a log replaced, truncated or
 * purged since discards it, and a file that does not parse or whose checksum fails is ignored.
 *
 * Layout: the line `mem-append-fold 1`, a JSON line {project, seq, hash, nodes, tombstones},
 * then `nodes` records of 9 bytes (the first 8 bytes of a node's sha256 and its level bits,
 * as ProvenanceCheck keeps them), then the sha256 of every byte before it.
 */
const MAGIC = 'mem-append-fold 1\n';
const RECORD = 9;
const DIGEST = 32;
const KEY = /^[0-9a-f]{16}$/;

interface Header {
  project: string;
  seq: number;
  hash: string;
  nodes: number;
  tombstones: TombstoneLine[];
}

/** Where `project`'s fold is saved under the state directory. */
export function foldPath(stateDir: string, project: string): string {
  return join(stateDir, 'append-folds', `${project}.fold`);
}

/**
 * The saved fold of `project`, or null when there is none, it is not whole, or it cannot be
 * read (a cache of the log: the append folds the log from its start instead).
 */
export async function loadFold(stateDir: string, project: string): Promise<AppendFold | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(foldPath(stateDir, project));
  } catch {
    return null;
  }
  return parseFold(bytes, project);
}

/** Parses a saved fold; null when it is damaged, of another format or of another project. */
export function parseFold(bytes: Buffer, project: string): AppendFold | null {
  if (bytes.length < MAGIC.length + DIGEST) return null;
  const body = bytes.subarray(0, bytes.length - DIGEST);
  const digest = createHash('sha256').update(body).digest();
  if (!digest.equals(bytes.subarray(bytes.length - DIGEST))) return null;
  if (body.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const end = body.indexOf(0x0a, MAGIC.length);
  if (end < 0) return null;
  let header: Header;
  try {
    header = JSON.parse(body.toString('utf8', MAGIC.length, end)) as Header;
  } catch {
    return null;
  }
  const records = end + 1;
  if (
    header.project !== project ||
    !Number.isSafeInteger(header.seq) ||
    typeof header.hash !== 'string' ||
    !Array.isArray(header.tombstones) ||
    body.length - records !== header.nodes * RECORD
  )
    return null;
  const provenance = new ProvenanceCheck(project);
  for (let at = records; at < body.length; at += RECORD)
    provenance.restore(body.toString('hex', at, at + 8), body[at + 8]!);
  const tombstones = new TombstoneSet();
  for (const line of header.tombstones) tombstones.restore(line);
  return { head: { seq: header.seq, hash: header.hash }, provenance, tombstones };
}

/** The bytes of a saved fold; null when a node key cannot be written in 8 bytes. */
export function serializeFold(project: string, fold: AppendFold): Buffer | null {
  const keys: [string, number][] = [...fold.provenance.nodes()];
  const header: Header = {
    project,
    seq: fold.head.seq,
    hash: fold.head.hash,
    nodes: keys.length,
    tombstones: [...fold.tombstones.entries()],
  };
  const head = Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`);
  const bytes = Buffer.alloc(head.length + keys.length * RECORD + DIGEST);
  head.copy(bytes);
  let at = head.length;
  for (const [key, levels] of keys) {
    if (!KEY.test(key)) return null;
    bytes.write(key, at, 8, 'hex');
    bytes[at + 8] = levels;
    at += RECORD;
  }
  createHash('sha256').update(bytes.subarray(0, at)).digest().copy(bytes, at);
  return bytes;
}

/**
 * Saves `fold` for `project`: written beside the file, fsynced, renamed over it and the
 * directory fsynced, so a reader finds the old fold or the new one, whole. Each writer has a
 * temporary name of its own: two processes saving at once leave the last one's fold.
 */
export async function saveFold(stateDir: string, project: string, fold: AppendFold): Promise<void> {
  const bytes = serializeFold(project, fold);
  if (!bytes) return;
  const path = foldPath(stateDir, project);
  makePrivateDirectory(join(stateDir, 'append-folds'));
  removeDeadTemporaries(stateDir, project);
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      PRIVATE_FILE_MODE,
    );
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
      await fsyncFile(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
    fsyncDirectory(join(stateDir, 'append-folds'));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw ioError('write', path, error);
  }
}

/**
 * Removes the temporary files of `project`'s saves whose writer is gone (a crash between create
 * and rename): each holds a whole fold, ~9 MB at a million nodes. Another live process's file
 * is left alone; a pid reused since is a file kept until that process ends.
 */
function removeDeadTemporaries(stateDir: string, project: string): void {
  const prefix = `${project}.fold.`;
  for (const name of readdirSync(join(stateDir, 'append-folds'))) {
    const pid = Number(/^(\d+)\.[0-9a-f]{8}$/.exec(name.slice(prefix.length))?.[1]);
    if (!name.startsWith(prefix) || !Number.isSafeInteger(pid) || pid === process.pid) continue;
    if (!alive(pid)) rmSync(join(stateDir, 'append-folds', name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Drops `project`'s saved fold; one that cannot be removed is discarded by the next load (its log no longer matches). */
export async function removeFold(stateDir: string, project: string): Promise<void> {
  await rm(foldPath(stateDir, project), { force: true }).catch(() => undefined);
}
