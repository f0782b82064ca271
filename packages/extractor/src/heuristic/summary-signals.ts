import type { ChunkRecord } from '../controller.js';
import type { CueFamily } from './cues.js';
import { listItems } from './text.js';

/** A line the heuristic reads off the structure of a chunk rather than off cue words. */
export interface Signal {
  text: string;
  family: CueFamily;
}

/*
 * A compaction summary was written by a model that already sorted the session: a "Key
 * decisions" bullet answers the decisions question, an "Errors and fixes" bullet the bugs
 * question, a "Pending tasks" bullet the open one. The heading names the family; each item of
 * the section is one line, kept whole.
 */
const HEADING_FAMILY: readonly [RegExp, CueFamily][] = [
  [/\b(?:errors?|fix(?:es)?|bugs?|problems?|issues? (?:found|fixed)|troubleshoot\w*)\b/i, 'cause'],
  [/\b(?:pending|open|next steps?|todos?|remaining|unresolved|outstanding|questions?|current (?:work|state))\b/i, 'open'],
  [/\b(?:decisions?|architect\w*|design|approach|conventions?|preferences?|rules?|constraints?)\b/i, 'decision'],
];

/** The family a summary heading answers, or undefined for a descriptive section. */
export function headingFamily(heading: string): CueFamily | undefined {
  return HEADING_FAMILY.find(([pattern]) => pattern.test(heading))?.[1];
}

/** The signal lines of a summary record's typed sections; the sections left are prose. */
export function summarySignals(record: ChunkRecord): { signals: Signal[]; prose: string[] } {
  const signals: Signal[] = [];
  const prose: string[] = [];
  for (const section of record.sections ?? []) {
    const family = headingFamily(section.heading);
    if (family === undefined) prose.push(section.text);
    else for (const item of listItems(section.text)) signals.push({ text: item, family });
  }
  return { signals, prose };
}
