import { splitNoteLines, type NoteItem } from './note-lines.js';

/** One change to a memory line that capture turns into an event. */
export type CaptureIntent =
  | { kind: 'forget'; path: string; line: number; block: string }
  | { kind: 'supersede'; path: string; line: number; block: string; text: string };

/**
 * What capture found and does not turn into an event, and why: the person sees it, and a
 * rebuild still refuses to overwrite the file until it is captured or discarded.
 */
export interface CaptureFinding {
  path: string;
  /** 1-based line in the file on disk; 0 for the file as a whole. */
  line: number;
  problem:
    | 'frontmatter_edited'
    | 'note_deleted'
    | 'untracked_file'
    | 'reordered'
    | 'block_id_edited'
    | 'line_added'
    | 'body_edited'
    | 'forgotten';
  message: string;
  /** For `forgotten`: the tombstone that refuses the new text (FORGOTTEN, never forced). */
  tombstone?: string;
}

/** The plan for one note: the events to append and what is only reported. */
export interface NoteCapturePlan {
  path: string;
  intents: CaptureIntent[];
  findings: CaptureFinding[];
}

/** Input of the planner: the note as the log projects it, the file on disk, a tombstone check. */
export interface NoteCaptureInput {
  path: string;
  /** The bytes the projector writes; null when it writes no such note. */
  projected: string | null;
  /** The file on disk, decoded; null when it is gone. */
  onDisk: string | null;
  /** The tombstone sha refusing `text`, or null: an edit must not bring forgotten text back. */
  refusedBy: (text: string) => string | null;
}

/** Whitespace is not meaning: a re-indented or re-spaced line is the same line. */
const sameText = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

function finding(
  path: string,
  line: number,
  problem: CaptureFinding['problem'],
  message: string,
): CaptureFinding {
  return { path, line, problem, message };
}

/**
 * Plans the capture of one L1/L2 note (pure: no I/O). A memory line's block id (`^sha8`) is
 * its identity: a block gone from the file is `forget`, a block whose text changed is
 * `supersede` by the new text. Everything a rebuild could not reproduce from an event — the
 * frontmatter, headings, provenance lines, order, added lines — is a finding, never an event:
 * frontmatter and provenance come from the log, and guessing what a person meant there would
 * write the wrong thing in an append-only log.
 */
export function planNoteCapture(input: NoteCaptureInput): NoteCapturePlan {
  const { path } = input;
  const plan: NoteCapturePlan = { path, intents: [], findings: [] };
  if (input.projected === null) {
    if (input.onDisk !== null)
      plan.findings.push(
        finding(path, 0, 'untracked_file', `${path}: a file the projector never wrote; left alone`),
      );
    return plan;
  }
  if (input.onDisk === null) {
    plan.findings.push(
      finding(
        path,
        0,
        'note_deleted',
        `${path}: the note was deleted; nothing is forgotten (delete its lines to forget them), a rebuild writes it again`,
      ),
    );
    return plan;
  }
  const want = splitNoteLines(input.projected);
  const have = splitNoteLines(input.onDisk);
  if (want.frontmatter !== have.frontmatter)
    plan.findings.push(
      finding(
        path,
        1,
        'frontmatter_edited',
        `${path}: the frontmatter was edited; it is rendered from the log, so the edit is not captured`,
      ),
    );
  if (want.skeleton.join('\n') !== have.skeleton.join('\n'))
    plan.findings.push(
      finding(
        path,
        0,
        'body_edited',
        `${path}: a heading, provenance line or other text outside the memory lines was edited; not captured`,
      ),
    );

  const wanted = new Map(want.items.map((item) => [item.block!, item]));
  const kept = have.items.filter((item) => item.block !== null && wanted.has(item.block));
  const keptBlocks = new Set(kept.map((item) => item.block!));
  const strangers = have.items.filter((item) => item.block === null || !wanted.has(item.block));
  const renamed = new Set<NoteItem>();

  for (const item of want.items) {
    if (keptBlocks.has(item.block!)) continue;
    const moved = strangers.find((s) => !renamed.has(s) && sameText(s.text, item.text));
    if (moved) {
      renamed.add(moved);
      plan.findings.push(
        finding(
          path,
          moved.line,
          'block_id_edited',
          `${path} line ${moved.line}: the block id of ^${item.block} was changed; the line is unchanged, so nothing is captured`,
        ),
      );
      continue;
    }
    plan.intents.push({ kind: 'forget', path, line: item.line, block: item.block! });
  }
  for (const item of kept) {
    const before = wanted.get(item.block!)!;
    if (sameText(item.text, before.text)) continue;
    const text = item.text.trim();
    const tombstone = input.refusedBy(text);
    if (tombstone !== null) {
      plan.findings.push({
        ...finding(
          path,
          item.line,
          'forgotten',
          `${path} line ${item.line}: the new text of ^${item.block} is refused by tombstone ${tombstone} (FORGOTTEN); not captured`,
        ),
        tombstone,
      });
      continue;
    }
    plan.intents.push({ kind: 'supersede', path, line: item.line, block: item.block!, text });
  }
  for (const item of strangers) {
    if (renamed.has(item)) continue;
    plan.findings.push(
      finding(
        path,
        item.line,
        'line_added',
        `${path} line ${item.line}: an added line is not captured (only edits and deletions of existing lines are); add it with a curated write`,
      ),
    );
  }
  const order = want.items.filter((item) => keptBlocks.has(item.block!)).map((i) => i.block);
  if (order.join(' ') !== kept.map((i) => i.block).join(' '))
    plan.findings.push(
      finding(
        path,
        0,
        'reordered',
        `${path}: memory lines were reordered; order comes from the log, so it is not captured`,
      ),
    );
  return plan;
}
