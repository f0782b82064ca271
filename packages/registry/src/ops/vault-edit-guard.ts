import { MemError, type LogEvent, type Payload } from '@mem/core';
import type { Engine, TombstoneSet } from '@mem/engine';
import {
  memoryNotesChangedBy,
  planNoteCapture,
  vaultHandles,
  type NoteCapturePlan,
} from '@mem/projector-vault';
import { readEvents } from './memory-ledger.js';
import { driftOf, type VaultDrift } from './vault-capture-plan.js';
import { readVaultFile } from './vault-files.js';

/** What a capture read before it took the lock: each note's text then, and its plan. */
export interface CaptureRead {
  onDisk: ReadonlyMap<string, string | null>;
  notes: readonly NoteCapturePlan[];
}

/** The batch as the log will hold it (a placeholder envelope: only what the vault fold reads matters). */
function asEvents(project: string, after: number, payloads: readonly Payload[]): LogEvent[] {
  const ts = new Date().toISOString();
  return payloads.map((payload, i) => ({
    seq: after + 1 + i,
    ts,
    project,
    ...payload,
    writer: { kind: 'cli' },
    prev: '0'.repeat(64),
  }));
}

async function readNote(vaultDir: string, path: string): Promise<string | null> {
  try {
    return await readVaultFile(vaultDir, path);
  } catch (error) {
    if (!(error instanceof MemError)) throw error;
    const reason =
      typeof error.details['reason'] === 'string' ? error.details['reason'] : error.code;
    throw new MemError(
      'CONFLICT',
      `${path}: cannot tell whether it holds an uncaptured edit (${reason}), and the correction would re-render it; nothing was appended`,
      { reason: 'unreadable_note', path, cause: reason },
    );
  }
}

/**
 * Refuses (CONFLICT, `details.reason` "uncaptured_edits", `details.files`, `details.drift`) a
 * batch of corrections whose append would re-render an L1/L2 note holding a person's uncaptured
 * edit. Run under the project's correction lock, after the batch's own checks, by every writer
 * of corrections: `mem forget`, `mem supersede`, review supersede, `mem log append` of
 * corrections, and vault capture. Trigger: a note edited in Obsidian and not yet captured, and a
 * correction of a line it shows (or of that line's copy in the L2 index). Why: the projector
 * writes the log's version of every note a batch changes, so the edit, which exists nowhere
 * else, was silently lost. Outcome: nothing is appended; the error names each file and line and
 * says to run `mem vault capture` (or undo the edit) and retry. A deleted note loses nothing
 * when written again, and a note the batch does not touch is not read.
 *
 * Vault capture passes what it read: a note it captures may differ from the log (that is the
 * edit it records), but not by an edit it only reports (a finding: frontmatter, headings, order),
 * and not since it read the note (a later save holds edits the batch does not record).
 */
export async function refuseOverwritingEdits(
  engine: Engine,
  project: string,
  payloads: readonly Payload[],
  capture?: CaptureRead,
  read?: readonly LogEvent[],
): Promise<void> {
  // Every event the vault folds may touch a note, and a touched note is written again wherever
  // the file differs (a gate changes chunks_seen and updated): a batch of none of them skips
  // the guard. Until stop 35's review only memory, superseded, forgotten, line_added and
  // tombstone counted, and a `mem log append` of a gate event overwrote an edit.
  if (!payloads.some((payload) => vaultHandles(payload))) return;
  // The caller's read of the log under the same lock, when it has one (a log read is most of the cost).
  const events = read ?? (await readEvents({ engine }, project));
  const { vaultDir, options } = engine.target;
  const { before, changed } = memoryNotesChangedBy(
    project,
    events,
    asEvents(project, events.at(-1)?.seq ?? 0, payloads),
    { emitEvidenceNotes: options.emitEvidenceNotes ?? false },
  );
  if (changed.length === 0) return;
  const projected = new Map(before.map((note) => [note.path, note]));
  // Read only for a note that differs from its projection (most corrections find none).
  let tombstones: TombstoneSet | undefined;
  const lost: VaultDrift[] = [];
  for (const path of changed) {
    const text = await readNote(vaultDir, path);
    const note = projected.get(path);
    if (text === null || text === note?.bytes) continue;
    const read = capture?.notes.find((plan) => plan.path === path);
    if (capture !== undefined && read !== undefined) {
      if (capture.onDisk.get(path) !== text) {
        lost.push({
          path: `vault/${path}`,
          line: 0,
          problem: 'changed_since_read',
          message: `${path} changed since the capture read it; capture again`,
        });
        continue;
      }
      // Its edits are this batch; only what capture reports and does not record would be lost.
      lost.push(...driftOf({ ...read, intents: [] }).filter((d) => d.problem !== 'note_deleted'));
      continue;
    }
    tombstones ??= await engine.tombstones(project);
    const refusing = tombstones;
    const plan = planNoteCapture({
      path,
      projected: note?.bytes ?? null,
      onDisk: text,
      refusedBy: (line) => refusing.match(line)?.tombstone ?? null,
      ...(note ? { blocks: note.blocks, added: note.added } : {}),
    });
    lost.push(...driftOf(plan).filter((d) => d.problem !== 'note_deleted'));
  }
  if (lost.length === 0) return;
  const files = [...new Set(lost.map((d) => d.path))].sort();
  throw new MemError(
    'CONFLICT',
    `${files.join(', ')}: ${lost.length} uncaptured edit${lost.length === 1 ? '' : 's'} this correction would overwrite (${lost[0]!.message}${lost.length > 1 ? '; …' : ''}); run mem vault capture --project ${project} (or undo the edit), then retry; nothing was appended`,
    { reason: 'uncaptured_edits', project, files, drift: lost },
  );
}
