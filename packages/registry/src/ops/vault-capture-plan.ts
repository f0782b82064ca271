import type { LogEvent } from '@mem/core';
import { foldTombstones, type Engine } from '@mem/engine';
import {
  planNoteCapture,
  projectedMemoryNotes,
  type CaptureIntent,
  type NoteCapturePlan,
  type ProjectedNote,
} from '@mem/projector-vault';
import { listProjectNotes, readVaultFile } from './vault-files.js';

/** The capture plan of one project: every L1/L2 note's plan, and the notes as projected. */
export interface ProjectCapturePlan {
  project: string;
  notes: NoteCapturePlan[];
  projected: Map<string, ProjectedNote>;
  /** Each note's text as the plan read it (null: no file): the guard sees whether it changed since. */
  onDisk: Map<string, string | null>;
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
  const read = new Map<string, string | null>();
  for (const path of paths) {
    const text = await readVaultFile(vaultDir, path);
    read.set(path, text);
    const note = projected.get(path);
    notes.push(
      planNoteCapture({
        path,
        projected: note?.bytes ?? null,
        onDisk: text,
        refusedBy: (line) => tombstones.match(line)?.tombstone ?? null,
        ...(note ? { blocks: note.blocks, added: note.added } : {}),
      }),
    );
  }
  return { project, notes, projected, onDisk: read };
}

const DRIFT = { forget: 'line_deleted', supersede: 'line_rewritten', add: 'line_added' } as const;
const VERB = { forget: 'deleted', supersede: 'rewritten', add: 'added' } as const;
const EVENT = { forget: 'forgotten', supersede: 'superseded', add: 'line_added' } as const;

/** How a report names the line of an intent: its block id, or an added line's sha. */
export function lineName(intent: CaptureIntent): string {
  if (intent.kind === 'add') return `an added line`;
  return intent.block !== '' ? `^${intent.block}` : `added line ${intent.target!.slice(0, 8)}`;
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
 * would append (`line_deleted`, `line_rewritten`, `line_added`) and the findings it would only report.
 * Files the projector never wrote are left out: no rebuild touches them.
 */
export async function vaultDrift(engine: Engine, project: string): Promise<VaultDrift[]> {
  const plan = await planProjectCapture(engine, project);
  return plan.notes.flatMap(driftOf);
}

/** One note's uncaptured differences, as vaultDrift reports them. */
export function driftOf(note: NoteCapturePlan): VaultDrift[] {
  return [
    ...note.intents.map((intent) => ({
      path: `vault/${note.path}`,
      line: intent.line,
      problem: DRIFT[intent.kind],
      message: `${note.path} line ${intent.line}: ${intent.kind === 'add' ? 'a line' : lineName(intent)} was ${VERB[intent.kind]}; uncaptured (mem vault capture records it as ${EVENT[intent.kind]})`,
    })),
    ...note.findings
      .filter((f) => f.problem !== 'untracked_file')
      .map((f) => ({
        path: `vault/${f.path}`,
        line: f.line,
        problem: f.problem,
        message: f.message,
      })),
  ];
}
