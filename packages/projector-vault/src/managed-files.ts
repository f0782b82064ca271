import { dirname, join } from 'node:path';
import { MemError } from '@mem/core';
import type { ProjectionOutput, ProjectionTarget } from '@mem/engine';
import { fsyncDir, pruneEmptyDirs, removeFile } from './fs-atomic.js';
import { managedPaths } from './notes.js';
import { deleteState, loadState, storedProjects } from './state-store.js';

/** The files this projector manages at `target`, known from its own state only, sorted by path. */
export async function vaultOutputs(target: ProjectionTarget): Promise<ProjectionOutput[]> {
  const outputs: ProjectionOutput[] = [];
  for (const project of await storedProjects(target.stateDir)) {
    const stored = await loadState(target.stateDir, project);
    if (stored.kind === 'absent') continue;
    if (stored.kind === 'unreadable') {
      throw new MemError(
        'PROJECTION_FAILED',
        `vault projector: state of ${project} is unreadable (${stored.reason}); rebuild the vault projection`,
        { project },
      );
    }
    for (const path of managedPaths(stored.state.fold, {
      emitEvidenceNotes: stored.state.emitEvidenceNotes,
    })) {
      outputs.push({ path: `vault/${path}`, absolutePath: join(target.vaultDir, path) });
    }
  }
  return outputs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Deletes the notes the state of `project` says this projector wrote, then the state.
 * Anything else in the vault (skills, .obsidian, a human's notes) is never touched. With an
 * unreadable state only the state goes: which notes were ours is unknown, and a rebuild
 * rewrites them in place.
 */
export async function resetProject(target: ProjectionTarget, project: string): Promise<void> {
  const stored = await loadState(target.stateDir, project);
  if (stored.kind === 'ok') {
    const { fold, emitEvidenceNotes } = stored.state;
    const dirs = new Set<string>();
    for (const path of managedPaths(fold, { emitEvidenceNotes })) {
      const absolute = join(target.vaultDir, path);
      await removeFile(absolute);
      dirs.add(dirname(absolute));
    }
    for (const dir of [...dirs].sort().reverse()) {
      for (const parent of await pruneEmptyDirs(dir, target.vaultDir)) dirs.add(parent);
    }
    for (const dir of [...dirs].sort()) await fsyncDir(dir);
  }
  if (stored.kind !== 'absent') await deleteState(target.stateDir, project);
}

/** Resets one project, or every project with a state file. */
export async function resetVault(target: ProjectionTarget, project?: string): Promise<void> {
  const projects = project !== undefined ? [project] : await storedProjects(target.stateDir);
  for (const name of projects) await resetProject(target, name);
}
