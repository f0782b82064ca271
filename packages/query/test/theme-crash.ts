import { evidence, linedMemory, run, type Payload } from './store.js';

/*
 * One L1 note of the `bugs-and-decisions` query (run r-1) holding a bug and an unrelated
 * decision, each line resting on its own chunk: the store the line-recall and line-citation
 * specs ask "why did the theme loader crash?" of.
 */

export const E_CRASH =
  'Error: Invalid hex color "#ggg" at hexToRgb (theme/load.ts:41). The theme loader now falls back to the dark theme when a colour does not parse.';
export const E_DECISION =
  'We agreed to keep the settings file in TOML rather than YAML, because comments survive a round trip.';
export const CRASH =
  'The theme loader crashed on Invalid hex color at hexToRgb; fixed with a fallback to the dark theme.';
export const DECISION = 'Settings stay in TOML, not YAML, because comments survive a round trip.';

/** Run r-1's payloads: its run, the two chunks, and the memory of two lines (CRASH, DECISION). */
export function themeCrashNote(): Payload[] {
  return [
    run('r-1', 'L1', 'bugs-and-decisions'),
    evidence('r-1', 1, E_CRASH),
    evidence('r-1', 2, E_DECISION),
    linedMemory('r-1', 'L1', 2, [
      [CRASH, [E_CRASH]],
      [DECISION, [E_DECISION]],
    ]),
  ];
}
