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
  [
    /\b(?:pending|open|next steps?|todos?|remaining|unresolved|outstanding|questions?|current (?:work|state))\b/i,
    'open',
  ],
  [
    /\b(?:decisions?|architect\w*|design|approach|conventions?|preferences?|rules?|constraints?|structure|stack|technolog\w*|configuration|setup)\b/i,
    'decision',
  ],
];

/** The family a summary heading answers, or undefined for a descriptive section. */
export function headingFamily(heading: string): CueFamily | undefined {
  return HEADING_FAMILY.find(([pattern]) => pattern.test(heading))?.[1];
}

/** A markdown heading, or a bold line alone (`**Errors and fixes:**`), in an agent's report. */
const HEADING = /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|\*\*([^*\n]{1,80}?):?\*\*:?[ \t]*)$/u;

/**
 * The sections of a record: a summary's own (typed at the source), else the headed parts of an
 * agent's report ("### Project Structure Created", "**Errors fixed:**"). Text before the first
 * heading is returned apart, as prose.
 */
export function recordSections(record: ChunkRecord): {
  sections: readonly { heading: string; text: string }[];
  lead: string;
} {
  if (record.role === 'summary' && record.sections !== undefined && record.sections.length > 0)
    return { sections: record.sections, lead: '' };
  if (record.role !== 'assistant' || record.text.startsWith('[thinking]'))
    return { sections: [], lead: record.text };
  const sections: { heading: string; lines: string[] }[] = [];
  const lead: string[] = [];
  for (const line of record.text.split('\n')) {
    const match = HEADING.exec(line.trim());
    const heading = match?.[1] ?? match?.[2];
    if (heading !== undefined)
      sections.push({ heading: heading.replace(/[*_`]/g, '').trim(), lines: [] });
    else (sections.at(-1)?.lines ?? lead).push(line);
  }
  if (!sections.some((section) => headingFamily(section.heading) !== undefined))
    return { sections: [], lead: record.text };
  return {
    sections: sections.map((section) => ({
      heading: section.heading,
      text: section.lines.join('\n'),
    })),
    lead: lead.join('\n'),
  };
}

/** The signal lines of a record's typed sections; the sections left are prose. */
export function sectionSignals(sections: readonly { heading: string; text: string }[]): {
  signals: Signal[];
  prose: string[];
} {
  const signals: Signal[] = [];
  const prose: string[] = [];
  for (const section of sections) {
    const family = headingFamily(section.heading);
    if (family === undefined) prose.push(section.text);
    else for (const item of listItems(section.text)) signals.push({ text: item, family });
  }
  return { signals, prose };
}
