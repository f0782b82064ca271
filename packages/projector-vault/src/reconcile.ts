import { dirname, join } from 'node:path';
import { MemError } from '@mem/core';
import { pruneEmptyDirs, readExisting, removeFile, writeFileAtomic } from './fs-atomic.js';
import { planVaultChanges, type ExistingFile, type VaultPlan } from './plan.js';

/**
 * The imperative shell around `planVaultChanges`: reads the files at `desired`'s paths and at
 * `candidates` (paths this projector manages that may have to go), then writes and deletes.
 * Paths are vault-relative, '/'-separated. Directories it changed are added to `touchedDirs`
 * for the caller to fsync once. Unreadable files are left alone and reported: IO_FAILED after
 * everything else is applied, so the caller does not record a position the vault does not reflect.
 */
export async function reconcileNotes(
  vaultDir: string,
  desired: ReadonlyMap<string, string>,
  candidates: Iterable<string>,
  touchedDirs: Set<string>,
): Promise<VaultPlan> {
  const paths = new Set<string>([...desired.keys(), ...candidates]);
  const existing = new Map<string, ExistingFile>();
  for (const path of [...paths].sort()) {
    const current = await readExisting(join(vaultDir, path));
    if (current !== undefined) existing.set(path, current);
  }
  const plan = planVaultChanges(desired, existing);
  for (const path of [...plan.new, ...plan.changed]) {
    const absolute = join(vaultDir, path);
    await writeFileAtomic(absolute, desired.get(path) as string);
    touchedDirs.add(dirname(absolute));
  }
  for (const path of plan.removed) {
    const absolute = join(vaultDir, path);
    await removeFile(absolute);
    touchedDirs.add(dirname(absolute));
    for (const dir of await pruneEmptyDirs(dirname(absolute), vaultDir)) touchedDirs.add(dir);
  }
  if (plan.unreadable.length > 0) {
    throw new MemError(
      'IO_FAILED',
      `vault projector: ${plan.unreadable.length} managed file(s) exist but cannot be read, left untouched: ${plan.unreadable.join(', ')}`,
      {
        unreadable: plan.unreadable,
      },
    );
  }
  return plan;
}
