// Types of crash-drill.mjs (plain JS, so the bench can import it without a build).
import type { EventLog } from '../src/index.js';

export interface DrillOptions {
  dir: string;
  project: string;
  env?: Record<string, string>;
}

/** Kills `kills` appending children; resolves to the ids they saw acknowledged. */
export function runCrashDrill(options: DrillOptions & { kills: number; parallel?: number; maxAcks?: number; maxDelayMs?: number; maxBatch?: number; maxPad?: number }): Promise<Set<string>>;

/** Runs `processes` children appending `appends` events each; resolves to their ack counts. */
export function runWriters(options: DrillOptions & { processes: number; appends: number }): Promise<number[]>;

/** Every id in the log with how often it occurs, the recovery count and the event count. */
export function idsInLog(log: EventLog, project: string): Promise<{ counts: Map<string, number>; recoveries: number; events: number }>;
