// Types of crash-drill.mjs (plain JS, so the bench can import it without a build).
import type { EventLog } from '../src/index.js';

export interface DrillOptions {
  dir: string;
  project: string;
  env?: Record<string, string>;
}

/** One run of the drill: acks before the kill is armed, the delay after, the child's seed. */
export interface DrillRun {
  killAfterAcks: number;
  killAfterMs: number;
  childSeed: number;
}

/** Throws NOT_FOUND (MemError) naming the first missing build output the children import. */
export function assertBuilt(entries?: string[]): void;

/** MEM_DRILL_SEED (0..2^32-1) or a freshly drawn seed; a malformed value is CONFIG_INVALID. */
export function drillSeed(env?: Record<string, string | undefined>): number;

/** The per-run random choices of a drill, drawn from `seed` in run order. */
export function drillPlan(options: {
  seed: number;
  kills: number;
  maxAcks?: number;
  maxDelayMs?: number;
}): DrillRun[];

/** Kills `kills` appending children (choices from `seed`); resolves to the ids they saw acknowledged. */
export function runCrashDrill(
  options: DrillOptions & {
    seed: number;
    kills: number;
    parallel?: number;
    maxAcks?: number;
    maxDelayMs?: number;
    maxBatch?: number;
    maxPad?: number;
  },
): Promise<Set<string>>;

/** Runs `processes` children appending `appends` events each; resolves to their ack counts. */
export function runWriters(
  options: DrillOptions & { processes: number; appends: number },
): Promise<number[]>;

/** Every id in the log with how often it occurs, the recovery count and the event count. */
export function idsInLog(
  log: EventLog,
  project: string,
): Promise<{ counts: Map<string, number>; recoveries: number; events: number }>;
