import { contentSha256 } from '@mem/core';
import { splitNoteLines, type NoteItem } from './note-lines.js';

/**
 * One change to a note's list that capture turns into an event. A line added in the vault has
 * no block id (`block` ''): its `target` is its sha. `after` is the line an added one was
 * written under, null when none with a known sha is above it.
 */
export type CaptureIntent =
  | { kind: 'forget'; path: string; line: number; block: string; target?: string }
  | { kind: 'supersede'; path: string; line: number; block: string; text: string; target?: string }
  | { kind: 'add'; path: string; line: number; text: string; after: string | null };

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
  /** Block id → the line sha it shows in the projected note (ProjectedNote.blocks). */
  blocks?: ReadonlyMap<string, string>;
  /** The lines added in the vault the projected note shows, in order (ProjectedNote.added). */
  added?: readonly { sha256: string; shown: string }[];
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

const quoted = (line: string | undefined) =>
  line === undefined ? 'nothing' : line.length > 80 ? `"${line.slice(0, 79)}…"` : `"${line}"`;

/**
 * The body_edited finding at the first skeleton line that differs (trailing lines an edit
 * removed: the line after the file's last). Trigger: the stop-32 walk (the finding named no
 * line). Why: a person must find the edit to undo or keep it. Outcome: the file line, what the
 * projector wrote there and what the file has.
 */
function bodyEdit(
  path: string,
  want: ReturnType<typeof splitNoteLines>,
  have: ReturnType<typeof splitNoteLines>,
): CaptureFinding {
  let i = 0;
  while (i < want.skeleton.length && want.skeleton[i] === have.skeleton[i]) i += 1;
  const line = have.skeletonLines[i] ?? (have.skeletonLines.at(-1) ?? 0) + 1;
  return finding(
    path,
    line,
    'body_edited',
    `${path} line ${line}: a heading, provenance line or other text outside the memory lines was edited (the note has ${quoted(want.skeleton[i])} where the file has ${quoted(have.skeleton[i])}); not captured`,
  );
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
    plan.findings.push(bodyEdit(path, want, have));

  const blocks = input.blocks ?? new Map<string, string>();
  const keyed = keyItems(want.items, have.items, input.added ?? []);
  const { wanted, keyOf } = keyed;
  const kept = have.items.filter((item) => keyOf.has(item));
  const keptKeys = new Set(kept.map((item) => keyOf.get(item)!));
  const strangers = have.items.filter((item) => !keyOf.has(item));
  const renamed = new Set<NoteItem>();
  const refused = (item: NoteItem, text: string, what: string): boolean => {
    const tombstone = input.refusedBy(text);
    if (tombstone === null) return false;
    plan.findings.push({
      ...finding(
        path,
        item.line,
        'forgotten',
        `${path} line ${item.line}: ${what} is refused by tombstone ${tombstone} (FORGOTTEN); not captured`,
      ),
      tombstone,
    });
    return true;
  };

  for (const [key, item] of wanted) {
    if (keptKeys.has(key)) continue;
    if (key.startsWith('+')) {
      // An added line gone: rewritten when a new bare line took its place (same line above it), else deleted.
      const target = key.slice(1);
      const above = keyed.wantAbove.get(item) ?? null;
      const rewrite = strangers.find(
        (s) => s.block === null && !renamed.has(s) && aboveKey(have.items, keyOf, s) === above,
      );
      if (rewrite) {
        renamed.add(rewrite);
        const text = rewrite.text.trim();
        if (!refused(rewrite, text, 'the new text of an added line'))
          plan.intents.push({
            kind: 'supersede',
            path,
            line: rewrite.line,
            block: '',
            target,
            text,
          });
        continue;
      }
      plan.intents.push({ kind: 'forget', path, line: item.line, block: '', target });
      continue;
    }
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
    const key = keyOf.get(item)!;
    const before = wanted.get(key)!;
    if (sameText(item.text, before.text)) continue;
    const text = item.text.trim();
    if (refused(item, text, `the new text of ^${item.block}`)) continue;
    plan.intents.push({ kind: 'supersede', path, line: item.line, block: item.block!, text });
  }
  for (const item of strangers) {
    if (renamed.has(item)) continue;
    if (item.block !== null) {
      plan.findings.push(
        finding(
          path,
          item.line,
          'line_added',
          `${path} line ${item.line}: a line with a block id the note never had (^${item.block}) is not captured; remove the block id to add it as a line`,
        ),
      );
      continue;
    }
    const text = item.text.trim();
    if (refused(item, text, 'the added line')) continue;
    const after = anchorOf(have.items, keyOf, blocks, item);
    plan.intents.push({ kind: 'add', path, line: item.line, text, after });
  }
  const order = [...wanted.keys()].filter((key) => keptKeys.has(key));
  if (order.join(' ') !== kept.map((item) => keyOf.get(item)).join(' '))
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

/** The projected note's items by key (a block id, or `+<sha>` for an added line) and the disk items that keep one. */
interface KeyedItems {
  wanted: Map<string, NoteItem>;
  /** Each wanted item → the key of the item right above it (null for the first). */
  wantAbove: Map<NoteItem, string | null>;
  keyOf: Map<NoteItem, string>;
}

/**
 * Keys both lists: a memory line by its block id, an added line (no block id) by its sha, found
 * in the projected note by its shown text in order and on disk by the same text. A disk item
 * that keeps no key is a stranger: new, or an edited block id.
 */
function keyItems(
  want: readonly NoteItem[],
  have: readonly NoteItem[],
  added: readonly { sha256: string; shown: string }[],
): KeyedItems {
  const wanted = new Map<string, NoteItem>();
  const wantAbove = new Map<NoteItem, string | null>();
  let next = 0;
  let above: string | null = null;
  for (const item of want) {
    let key = item.block;
    if (key === null) {
      const at = added.findIndex((line, i) => i >= next && sameText(line.shown, item.text));
      if (at < 0) continue;
      next = at + 1;
      key = `+${added[at]!.sha256}`;
    }
    wanted.set(key, item);
    wantAbove.set(item, above);
    above = key;
  }
  const keyOf = new Map<NoteItem, string>();
  const claimed = new Set<string>();
  for (const item of have) {
    const key =
      item.block !== null
        ? wanted.has(item.block)
          ? item.block
          : undefined
        : [...wanted.keys()].find(
            (k) => k.startsWith('+') && !claimed.has(k) && sameText(wanted.get(k)!.text, item.text),
          );
    if (key === undefined || claimed.has(key)) continue;
    claimed.add(key);
    keyOf.set(item, key);
  }
  return { wanted, wantAbove, keyOf };
}

/** The key of the disk item right above `item`, or null (first, or a stranger above it). */
function aboveKey(
  have: readonly NoteItem[],
  keyOf: ReadonlyMap<NoteItem, string>,
  item: NoteItem,
): string | null {
  const at = have.indexOf(item);
  return at > 0 ? (keyOf.get(have[at - 1]!) ?? null) : null;
}

/**
 * The line an added one was written under: the nearest item above it with a sha — a kept
 * memory line (its block's sha), an added line, or a line added in this same edit (its text's
 * sha). Null when there is none (an item above with an unknown block id is skipped).
 */
function anchorOf(
  have: readonly NoteItem[],
  keyOf: ReadonlyMap<NoteItem, string>,
  blocks: ReadonlyMap<string, string>,
  item: NoteItem,
): string | null {
  for (let i = have.indexOf(item) - 1; i >= 0; i--) {
    const above = have[i]!;
    const key = keyOf.get(above);
    if (key !== undefined) {
      const sha = key.startsWith('+') ? key.slice(1) : blocks.get(key);
      if (sha !== undefined) return sha;
      continue;
    }
    if (above.block === null) return contentSha256(above.text.trim());
  }
  return null;
}
