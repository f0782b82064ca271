import { z } from 'zod';

/*
 * Projection settings: choices that change what a projection writes for the same log. They are
 * events, so a rebuild from the log alone reproduces every projection (nothing beside the log
 * shapes the output). They live in the `_system` log only: a setting shapes the vault of every
 * project, and the engine must know it before any projector opens (a change resets and replays
 * every project), which only a log read ahead of the projects can tell it. The latest event wins.
 */
export const projectionSettingsSetShape = {
  /** Vault: also write one note per L0 evidence under `<project>/evidence/` and link it. */
  emit_evidence_notes: z.boolean({ error: 'expected true or false' }),
};
