import { assertProjectName } from '@mem/core';
import type { ProjectionBatch, ProjectionPosition, ProjectionTarget, Projector } from '@mem/engine';
import { VAULT_HANDLES } from './fold.js';
import { resetProject, resetVault, vaultOutputs } from './managed-files.js';
import {
  applyBatch,
  checkContinues,
  openSession,
  sealSession,
  sessionOf,
  type ProjectSession,
} from './session.js';
import { loadState, storedProjects } from './state-store.js';
import { VAULT_PROJECTOR_VERSION } from './vault-state.js';

/** What `init` opens: the target and the sessions of the projects touched since. */
export interface VaultHandle {
  readonly target: ProjectionTarget;
  readonly sessions: Map<string, ProjectSession>;
}

async function session(handle: VaultHandle, project: string): Promise<ProjectSession> {
  let open = handle.sessions.get(project);
  if (!open) {
    open = await openSession(handle.target, assertProjectName(project));
    handle.sessions.set(project, open);
  }
  return open;
}

/**
 * Opens the stored projects. Trigger: a state from another projector version, with other
 * options, or unreadable. Why: its notes were rendered differently, so catching up from it
 * cannot match a rebuild. Outcome: that project is reset (its own notes and state only) and
 * replays from seq 1. An undefined `emitEvidenceNotes` keeps what each project was built with.
 */
async function openStored(target: ProjectionTarget): Promise<Map<string, ProjectSession>> {
  const wanted = target.options.emitEvidenceNotes;
  const sessions = new Map<string, ProjectSession>();
  for (const project of await storedProjects(target.stateDir)) {
    const stored = await loadState(target.stateDir, project);
    if (stored.kind === 'absent') continue;
    const stale =
      stored.kind === 'unreadable' ||
      stored.state.version !== VAULT_PROJECTOR_VERSION ||
      (wanted !== undefined && stored.state.emitEvidenceNotes !== wanted);
    if (stale) await resetProject(target, project);
    else sessions.set(project, sessionOf(target, project, stored.state));
  }
  return sessions;
}

/** The Obsidian vault projector: L1 query notes, the L2 index, optional L0 evidence notes. */
export const projectorVault: Projector<VaultHandle> = {
  name: 'vault',
  version: VAULT_PROJECTOR_VERSION,
  handles: VAULT_HANDLES,

  async init(target: ProjectionTarget): Promise<VaultHandle> {
    return { target, sessions: await openStored(target) };
  },

  async position(handle: VaultHandle, project: string): Promise<ProjectionPosition | null> {
    const { position } = (await session(handle, project)).state;
    return position.seq === 0 ? null : { ...position };
  },

  async project(handle: VaultHandle, project: string, batch: ProjectionBatch): Promise<void> {
    const open = await session(handle, project);
    checkContinues(open, batch);
    try {
      await applyBatch(handle.target, open, batch);
    } catch (error) {
      // The fold may be part-applied: drop it, so the next call starts from the sealed state.
      handle.sessions.delete(project);
      throw error;
    }
  },

  async seal(handle: VaultHandle): Promise<void> {
    // One project's failure (an unreadable note) must not keep the others from sealing.
    const failures: unknown[] = [];
    for (const [, open] of [...handle.sessions].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await sealSession(handle.target, open).catch((error: unknown) => failures.push(error));
    }
    if (failures.length > 0) throw failures[0];
  },

  outputs: vaultOutputs,

  async close(handle: VaultHandle): Promise<void> {
    handle.sessions.clear();
  },

  reset: resetVault,
};
