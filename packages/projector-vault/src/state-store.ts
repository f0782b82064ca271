import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemError, projectNameSchema } from '@mem/core';
import { fsyncDir, removeFile, writeFileAtomic } from './fs-atomic.js';
import { decodeVaultState, encodeVaultState, type VaultState } from './vault-state.js';

/** `<stateDir>/vault`: droppable derived state of this projector, one JSON file per project. */
export function stateRoot(stateDir: string): string {
  return join(stateDir, 'vault');
}

export function statePath(stateDir: string, project: string): string {
  return join(stateRoot(stateDir), `${project}.json`);
}

/** A stored state: absent, unreadable (bad JSON or shape), or the state itself. */
export type StoredState =
  { kind: 'absent' } | { kind: 'unreadable'; reason: string } | { kind: 'ok'; state: VaultState };

export async function loadState(stateDir: string, project: string): Promise<StoredState> {
  let text: string;
  try {
    text = await readFile(statePath(stateDir, project), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    return code === 'ENOENT' ? { kind: 'absent' } : { kind: 'unreadable', reason: code };
  }
  try {
    const state = decodeVaultState(text);
    if (state.fold.project !== project)
      return { kind: 'unreadable', reason: `state of project ${state.fold.project}` };
    return { kind: 'ok', state };
  } catch (error) {
    return { kind: 'unreadable', reason: (error as Error).message };
  }
}

/** Written after the notes it describes: a crash in between re-applies from the old position and re-renders the same bytes. */
export async function saveState(stateDir: string, state: VaultState): Promise<void> {
  await writeFileAtomic(statePath(stateDir, state.fold.project), encodeVaultState(state), {
    private: true,
  });
  await fsyncDir(stateRoot(stateDir));
}

export async function deleteState(stateDir: string, project: string): Promise<void> {
  await removeFile(statePath(stateDir, project));
}

/** Projects that have a state file, sorted. */
export async function storedProjects(stateDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(stateRoot(stateDir));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (code === 'ENOENT') return [];
    throw new MemError(
      'IO_FAILED',
      `vault projector: cannot list ${stateRoot(stateDir)}: ${code}`,
      { path: stateRoot(stateDir), errno: code },
      { cause: error },
    );
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((project) => projectNameSchema.safeParse(project).success)
    .sort();
}
