import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateFile, makePrivateDirectory, MemError } from '@mem/core';
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

/** Records `head` for `project` (write to a temporary file, then rename: readers never see half). */
export function writeRecordedHead(stateDir: string, project: string, head: RecordedHead): void {
  const file = headFile(stateDir, project);
  makePrivateDirectory(join(stateDir, 'chain-heads'));
  // Owner-only like the rest of `.mem/`: created 0600 first, then filled (a rename keeps the mode).
  createPrivateFile(`${file}.tmp`);
  writeFileSync(
    `${file}.tmp`,
    `${JSON.stringify({ seq: head.seq, head: head.head, by: head.by })}\n`,
  );
  renameSync(`${file}.tmp`, file);
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
