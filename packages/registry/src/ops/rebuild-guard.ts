import { MemError } from '@mem/core';
import type { Engine } from '@mem/engine';
import { vaultDrift } from './vault-capture-plan.js';

/**
 * Refuses (CONFLICT, `details.reason` "uncaptured_edits", `details.files`) a vault rebuild that
 * would overwrite a person's uncaptured edit of an L1/L2 note. Trigger: a note that differs from
 * what the log projects. Why: the rebuild writes the log's version, and the edit exists nowhere
 * else. Outcome: nothing is dropped; capture the edits, or rebuild with --discard-edits.
 * A deleted note is not an edit a rebuild loses (it writes the note again), so it passes.
 * `mem purge` runs it too (`what` 'purge'): it drops the whole vault and replays every project.
 */
export async function refuseUncapturedEdits(
  engine: Engine,
  project: string | undefined,
  what: 'rebuild' | 'purge' = 'rebuild',
): Promise<void> {
  const projects =
    project !== undefined ? [project] : (await engine.projects()).filter((p) => p !== '_system');
  const drift = [];
  for (const name of projects)
    drift.push(...(await vaultDrift(engine, name)).filter((d) => d.problem !== 'note_deleted'));
  if (drift.length === 0) return;
  const files = [...new Set(drift.map((d) => d.path))].sort();
  throw new MemError(
    'CONFLICT',
    what === 'rebuild'
      ? `rebuild would overwrite uncaptured edits in ${files.join(', ')}: run mem vault capture, or rebuild with --discard-edits; nothing was rebuilt`
      : `purge rebuilds the vault and would overwrite uncaptured edits in ${files.join(', ')}: run mem vault capture (or undo the edit, or delete the note: it is written again), then purge; nothing was purged`,
    { reason: 'uncaptured_edits', files, drift },
  );
}
