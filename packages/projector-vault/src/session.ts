import { join } from 'node:path';
import { MemError, genesisHash } from '@mem/core';
import { checkStart, type ProjectionBatch, type ProjectionTarget } from '@mem/engine';
import { applyEvent, noteKeyId } from './fold.js';
import { emptyFold, type NoteKey } from './fold-state.js';
import { fsyncDir } from './fs-atomic.js';
import { notePath, renderNote } from './notes.js';
import { reconcileNotes } from './reconcile.js';
import type { RenderOptions } from './render-query.js';
import { loadState, saveState } from './state-store.js';
import { VAULT_PROJECTOR_VERSION, type VaultState } from './vault-state.js';

/** One project's projection between `init` and `seal`: the fold in memory and what changed since the last seal. */
export interface ProjectSession {
  state: VaultState;
  /** Notes to re-render at seal, by `noteKeyId`. */
  dirty: Map<string, NoteKey>;
  /** Notes to delete at seal: evidence notes and source notes whose evidence was tombstoned. */
  evidenceRemoved: Set<string>;
  /** Directories written since the last seal, fsynced once at seal. */
  touchedDirs: Set<string>;
  /** Position at the last load or seal: seal only writes what moved. */
  sealedSeq: number;
}

function options(state: VaultState): RenderOptions {
  return { emitEvidenceNotes: state.emitEvidenceNotes };
}

/** A session over a stored state, or a fresh one (nothing applied) when there is none. */
export function sessionOf(
  target: ProjectionTarget,
  project: string,
  stored: VaultState | null,
): ProjectSession {
  const state: VaultState = stored ?? {
    version: VAULT_PROJECTOR_VERSION,
    emitEvidenceNotes: target.options.emitEvidenceNotes ?? false,
    position: { seq: 0, head: genesisHash(project) },
    fold: emptyFold(project),
  };
  return {
    state,
    dirty: new Map(),
    evidenceRemoved: new Set(),
    touchedDirs: new Set(),
    sealedSeq: state.position.seq,
  };
}

/**
 * Opens a project's session from its state file. An unreadable state file here is an error:
 * `init` resets those, so one seen later broke while the handle was open.
 */
export async function openSession(
  target: ProjectionTarget,
  project: string,
): Promise<ProjectSession> {
  const stored = await loadState(target.stateDir, project);
  if (stored.kind === 'unreadable') {
    throw new MemError(
      'PROJECTION_FAILED',
      `vault projector: state of ${project} is unreadable (${stored.reason}); rebuild the vault projection`,
      { project },
    );
  }
  return sessionOf(target, project, stored.kind === 'ok' ? stored.state : null);
}

/** Refuses a batch that does not start where this session stands; changes nothing. */
export function checkContinues(session: ProjectSession, batch: ProjectionBatch): void {
  const { position, fold } = session.state;
  checkStart(fold.project, position.seq === 0 ? null : position, batch.after, 'vault');
}

/**
 * Folds a checked batch event by event. Evidence notes are written as their events are
 * applied (their bytes never change, so a crash before seal only rewrites them identically);
 * every other note waits for seal.
 */
export async function applyBatch(
  target: ProjectionTarget,
  session: ProjectSession,
  batch: ProjectionBatch,
): Promise<void> {
  const { state } = session;
  for (const { event } of batch.events) {
    const effect = applyEvent(state.fold, event, options(state));
    for (const key of effect.touched) session.dirty.set(noteKeyId(key), key);
    if (effect.evidenceRemoved) session.evidenceRemoved.add(effect.evidenceRemoved);
    if (effect.evidenceNote) {
      await reconcileNotes(
        target.vaultDir,
        new Map([[effect.evidenceNote.path, effect.evidenceNote.content]]),
        [],
        session.touchedDirs,
      );
    }
  }
  state.position = { ...batch.through };
}

/** Renders the changed notes, reconciles them with the vault, fsyncs, and only then records the position. */
export async function sealSession(
  target: ProjectionTarget,
  session: ProjectSession,
): Promise<void> {
  const { state } = session;
  if (state.position.seq === session.sealedSeq) return;
  const desired = new Map<string, string>();
  for (const key of [...session.dirty.values()]) {
    const path = notePath(state.fold.project, key);
    const content = renderNote(state.fold, key, options(state));
    // A source note with no chunk left (all tombstoned) goes, like the evidence notes it listed.
    if (content === null) session.evidenceRemoved.add(path);
    else desired.set(path, content);
  }
  await reconcileNotes(target.vaultDir, desired, session.evidenceRemoved, session.touchedDirs);
  const dirs = new Set([
    ...session.touchedDirs,
    projectDir(target, state.fold.project),
    target.vaultDir,
  ]);
  for (const dir of [...dirs].sort()) await fsyncDir(dir);
  await saveState(target.stateDir, state);
  session.dirty.clear();
  session.evidenceRemoved.clear();
  session.touchedDirs.clear();
  session.sealedSeq = state.position.seq;
}

/** Where a project's notes live: `<vaultDir>/<project>`. */
export function projectDir(target: ProjectionTarget, project: string): string {
  return join(target.vaultDir, project);
}
