import type { LogEvent } from '@mem/core';
import { foldTombstones, type Engine } from '@mem/engine';
import {
  planNoteCapture,
  projectedMemoryNotes,
  type NoteCapturePlan,
  type ProjectedNote,
} from '@mem/projector-vault';
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
  engine: Engine,
  project: string,
): Promise<ProjectCapturePlan> {
  const events: LogEvent[] = [];
  for await (const { event } of engine.read(project)) events.push(event);
  const { vaultDir, options } = engine.target;
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

/** One place a vault note differs from what the log projects, as verify and rebuild report it. */
export interface VaultDrift {
  path: string;
  line: number;
  problem: string;
  message: string;
}

/**
 * Every uncaptured difference of the project's L1/L2 notes, per file and line: the edits capture
 * would append (`line_deleted`, `line_rewritten`) and the findings it would only report.
 * Files the projector never wrote are left out: no rebuild touches them.
 */
export async function vaultDrift(engine: Engine, project: string): Promise<VaultDrift[]> {
  const plan = await planProjectCapture(engine, project);
  return plan.notes.flatMap((note) => [
    ...note.intents.map((intent) => ({
      path: `vault/${note.path}`,
      line: intent.line,
      problem: intent.kind === 'forget' ? 'line_deleted' : 'line_rewritten',
      message:
        intent.kind === 'forget'
          ? `${note.path} line ${intent.line}: ^${intent.block} was deleted; uncaptured (mem vault capture records it as forgotten)`
          : `${note.path} line ${intent.line}: ^${intent.block} was rewritten; uncaptured (mem vault capture records it as superseded)`,
    })),
    ...note.findings
      .filter((f) => f.problem !== 'untracked_file')
      .map((f) => ({
        path: `vault/${f.path}`,
        line: f.line,
        problem: f.problem,
        message: f.message,
      })),
  ]);
}
