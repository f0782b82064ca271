/** A memory line of a note: `- <text> ^<block>`; `block` null for a list item without one. */
export interface NoteItem {
  /** 1-based line in the file. */
  line: number;
  text: string;
  block: string | null;
}

/** A note split the way capture compares it: frontmatter, memory lines, and everything else. */
export interface NoteLines {
  frontmatter: string;
  items: NoteItem[];
  /** The lines that are neither memory lines nor the provenance line right under one. */
  skeleton: string[];
  /** The 1-based file line of each skeleton line, in step with `skeleton`. */
  skeletonLines: number[];
}

const ITEM = /^- (.*?)\s*\^([0-9a-f]{8}(?:-\d+)?)\s*$/;
const BARE_ITEM = /^- (.+)$/;
const PROVENANCE = /^ {2}- from /;

/**
 * Splits a note (LF or CRLF: Windows editors save CRLF, and line endings are not an edit).
 * Trailing whitespace on a line is dropped for the same reason.
 */
export function splitNoteLines(text: string): NoteLines {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let start = 0;
  let frontmatter = '';
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) {
      frontmatter = lines.slice(0, end + 1).join('\n');
      start = end + 1;
    }
  }
  const items: NoteItem[] = [];
  const skeleton: string[] = [];
  const skeletonLines: number[] = [];
  // In the item list (bare items count as added lines there); right under an item (one provenance line).
  let afterItem = false;
  let underItem = false;
  for (let i = start; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\s+$/, '');
    const withId = ITEM.exec(raw);
    const bare = withId ? null : BARE_ITEM.exec(raw);
    if (withId || (bare && afterItem)) {
      items.push({
        line: i + 1,
        text: withId ? withId[1]! : bare![1]!,
        block: withId?.[2] ?? null,
      });
      afterItem = true;
      underItem = true;
      continue;
    }
    if (underItem && PROVENANCE.test(raw)) {
      underItem = false;
      continue;
    }
    afterItem = false;
    underItem = false;
    skeleton.push(raw);
    skeletonLines.push(i + 1);
  }
  return { frontmatter, items, skeleton, skeletonLines };
}
