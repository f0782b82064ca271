import type { LogEvent } from '@mem/core';
import { foldTombstones } from '@mem/engine';
import {
  planNoteCapture,
  projectedMemoryNotes,
  type NoteCapturePlan,
  type ProjectedNote,
} from '@mem/projector-vault';
import type { RegistryContext } from '../context.js';
import { listProjectNotes, readVaultFile } from './vault-files.js';

/** The capture plan of one project: every L1/L2 note's plan, and the notes as projected. */
export interface ProjectCapturePlan {
  project: string;
  notes: NoteCapturePlan[];
  projected: Map<string, ProjectedNote>;
}

/** Top-level notes the vault projector writes that hold no memory line (the review queue). */
const NOT_MEMORY_NOTES = new Set(['_review.md']);

/**
 * Reads every L1/L2 note of `project` from the vault (untrusted: see readVaultFile) and plans
 * its capture against what the log projects. Reads everything before it returns, so a refused
 * file stops the capture before any event is appended.
 */
export async function planProjectCapture(
  ctx: RegistryContext,
  project: string,
): Promise<ProjectCapturePlan> {
  const events: LogEvent[] = [];
  for await (const { event } of ctx.engine.read(project)) events.push(event);
  const { vaultDir, options } = ctx.engine.target;
  const projected = new Map(
    projectedMemoryNotes(project, events, {
      emitEvidenceNotes: options.emitEvidenceNotes ?? false,
    }).map((note) => [note.path, note]),
  );
  const tombstones = await foldTombstones(
    (async function* () {
      for (const event of events) yield { event };
    })(),
  );
  const onDisk = (await listProjectNotes(vaultDir, project)).filter(
    (path) => !NOT_MEMORY_NOTES.has(path.slice(project.length + 1)),
  );
  const paths = [...new Set([...projected.keys(), ...onDisk])].sort();
  const notes: NoteCapturePlan[] = [];
  for (const path of paths) {
    const text = await readVaultFile(vaultDir, path);
    notes.push(
      planNoteCapture({
        path,
        projected: projected.get(path)?.bytes ?? null,
        onDisk: text,
        refusedBy: (line) => tombstones.match(line)?.tombstone ?? null,
      }),
    );
  }
  return { project, notes, projected };
}
