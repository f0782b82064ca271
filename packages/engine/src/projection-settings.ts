import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MemError, SYSTEM_PROJECT } from '@mem/core';
import type { EventLog } from '@mem/log';
import type { ProjectionOptions } from './projector.js';

/** Where projection settings were kept before they became events; no longer read. */
export const LEGACY_VAULT_SETTINGS = '.mem-settings.json';

/** The settings of a log with no `projection_settings_set`: the committed demo's (no evidence notes). */
export const DEFAULT_PROJECTION_OPTIONS: Readonly<Required<ProjectionOptions>> = Object.freeze({
  emitEvidenceNotes: false,
});

/**
 * The projection options the `_system` log holds: its latest `projection_settings_set` wins,
 * none means the defaults. Reads only past what it has read before (the log is append-only),
 * so refreshing under every projection lock costs the new `_system` events, not the whole log.
 */
export class ProjectionSettings {
  private readSeq = 0;
  private current: Required<ProjectionOptions> = { ...DEFAULT_PROJECTION_OPTIONS };

  constructor(private readonly log: EventLog) {}

  async read(): Promise<Required<ProjectionOptions>> {
    // Trigger: every projection lock refreshes the settings, and `_system` rarely moves. Why:
    // a walk lists the segments through the thread pool and opens the log even when it yields
    // nothing (~0.2 ms of an item write under load, stop 35). Outcome: the head (one listing,
    // remembered bytes compared) says first whether there is anything past what was read.
    if ((await this.log.head(SYSTEM_PROJECT)).seq <= this.readSeq) return { ...this.current };
    for await (const { event } of this.log.read(SYSTEM_PROJECT, { fromSeq: this.readSeq + 1 })) {
      if (event.type === 'projection_settings_set')
        this.current = { emitEvidenceNotes: event.emit_evidence_notes };
      this.readSeq = event.seq;
    }
    return { ...this.current };
  }
}

/** The payload that sets `wanted`, or null when `current` already is it (nothing to append). */
export function settingsChange(
  current: Required<ProjectionOptions>,
  wanted: ProjectionOptions,
): { type: 'projection_settings_set'; emit_evidence_notes: boolean } | null {
  const next = { ...current, ...wanted };
  if (next.emitEvidenceNotes === current.emitEvidenceNotes) return null;
  return { type: 'projection_settings_set', emit_evidence_notes: next.emitEvidenceNotes };
}

/**
 * The path of a leftover settings file from before settings were events, or null. Trigger: a
 * vault built by an older mem. Why not migrate it: a reading command (query, verify) would then
 * append to the log behind the user's back. Outcome: callers warn once; the file is ignored.
 */
export function leftoverSettingsFile(vaultDir: string): string | null {
  const file = join(vaultDir, LEGACY_VAULT_SETTINGS);
  return existsSync(file) ? file : null;
}

/** Refuses a settings event bound for a project's log: only `_system`'s are read, so one elsewhere would silently do nothing. */
export function assertSettingsInSystem(project: string, payloads: readonly unknown[]): void {
  if (project === SYSTEM_PROJECT) return;
  const index = payloads.findIndex(
    (p) => (p as { type?: unknown } | null)?.type === 'projection_settings_set',
  );
  if (index < 0) return;
  throw new MemError(
    'INVALID_INPUT',
    `line ${index + 1}: projection_settings_set belongs in the ${SYSTEM_PROJECT} log, not ${project}'s: run \`mem rebuild --from-log --emit-evidence-notes\` (or --no-emit-evidence-notes)`,
    {
      project,
      line: index + 1,
      field: 'type',
    },
  );
}
