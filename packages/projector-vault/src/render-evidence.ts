import { stringifyNote } from './frontmatter.js';
import { inertLinks, markdownBlock } from './text.js';

/** What an evidence note shows: one L0 evidence record, as logged. */
export interface EvidenceNoteInput {
  project: string;
  /** The query of the run that produced it; null when its run record is missing. */
  query_id: string | null;
  source: string;
  t: number;
  sha256: string;
  text: string;
}

/** The L0 note `<project>/evidence/<stem>.md`. Written once: its content is a function of one event; `[[` in it is made inert. */
export function renderEvidenceNote(input: EvidenceNoteInput): string {
  return stringifyNote(
    [
      ['project', input.project],
      ['level', 'L0'],
      ['query_id', input.query_id],
      ['source', input.source],
      ['chunk', input.t],
      ['sha256', input.sha256],
    ],
    [`# ${input.source} — chunk ${input.t}`, '', inertLinks(markdownBlock(input.text))],
  );
}
