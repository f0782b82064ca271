import { z } from 'zod';
import { contentSha256, sha256Hex } from '../identity.js';
import { sha256Field } from './fields.js';
import { hasPurgeMarker } from './purge-payloads.js';

/*
 * A memory is a list of lines, and each line is addressable (DESIGN §5): its own content sha
 * and the shas it rests on travel on the memory event as `lines`, one entry per line of `text`
 * in order. The text itself is not repeated: a line's text is the memory's line at the same
 * index, so the event stays one copy of the memory and `lines` cannot disagree with it
 * without failing validation.
 */

/**
 * A failure signature a line was drawn from (signature/tool-result.ts): the exact-match key of
 * tool context's tier 1. The normalised text travels, the raw error line does not (it is
 * evidence text, and stays where purge can find it).
 */
export const lineSignatureField = z.strictObject({
  /** sha256 of `signature`. */
  sig_sha: sha256Field,
  signature: z.string().min(1),
  tool: z.string().min(1),
});
export type LineSignature = z.infer<typeof lineSignatureField>;

/** One entry of a memory's `lines`: the line's content sha and the shas it came from. */
export const memoryLineField = z.strictObject({
  sha256: sha256Field,
  parents: z
    .array(sha256Field)
    .min(1, 'expected at least one parent sha: a line rests on evidence'),
  /**
   * The signatures of the failing tool results this line was drawn from, on the event whose
   * chunk brought the line; a line kept from an earlier memory does not repeat them, so each is
   * one occurrence of the failure and a fold counts them as they stand. Optional within v2.
   */
  signatures: z.array(lineSignatureField).min(1).optional(),
});
export type MemoryLineRef = z.infer<typeof memoryLineField>;

/** An addressable line of a memory: its text with the fields `lines` carries for it. */
export interface MemoryLine extends MemoryLineRef {
  text: string;
}

// A list marker is layout, not content: "- X", "* X", "+ X" and "3. X" state the same line X.
const LIST_MARKER = /^(?:[-*+]|\d{1,3}[.)])\s+/;

/**
 * The lines of a memory text, in order: each non-blank line, trimmed, with a leading list
 * marker removed. The one definition every writer, projector and reader splits a memory by.
 */
export function splitMemoryLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(LIST_MARKER, '').trim();
    if (line !== '') out.push(line);
  }
  return out;
}

/**
 * `lines` for a memory whose every line rests on the same shas: what a writer that does not
 * track lines separately (a hand-written memory, a memory read from a v1 line) records.
 */
export function uniformLines(text: string, parents: readonly string[]): MemoryLineRef[] {
  return splitMemoryLines(text).map((line) => ({
    sha256: contentSha256(line),
    parents: [...parents],
  }));
}

/** A memory's lines joined with their text (the event must have passed validation). */
export function memoryLines(memory: {
  text: string;
  lines: readonly MemoryLineRef[];
}): MemoryLine[] {
  const texts = splitMemoryLines(memory.text);
  return memory.lines.map((ref, i) => ({
    text: texts[i]!,
    sha256: ref.sha256,
    parents: [...ref.parents],
    ...(ref.signatures ? { signatures: ref.signatures.map((s) => ({ ...s })) } : {}),
  }));
}

/**
 * Issues with a memory's `lines` against its text and parents: one entry per line of the
 * text, each sha the content sha of its line, each line's parents among the memory's, and
 * the memory's parents exactly the union of its lines' (so neither can name evidence the
 * other does not). Returned as (path, message) pairs for the catalogue's zod check.
 */
export function memoryLinesIssues(memory: {
  text: string;
  parents: readonly string[];
  lines: readonly MemoryLineRef[];
}): { path: (string | number)[]; message: string }[] {
  const texts = splitMemoryLines(memory.text);
  if (texts.length !== memory.lines.length) {
    return [
      {
        path: ['lines'],
        message: `expected ${texts.length} entr${texts.length === 1 ? 'y' : 'ies'}, one per line of text, got ${memory.lines.length}`,
      },
    ];
  }
  const issues: { path: (string | number)[]; message: string }[] = [];
  const parents = new Set(memory.parents);
  const used = new Set<string>();
  memory.lines.forEach((line, i) => {
    const expected = contentSha256(texts[i]!);
    // A line a purge rewrote keeps the sha it was cited by (purge-payloads.ts); only logged
    // lines can hold a marker: parse.ts refuses one in a payload before this check runs.
    if (line.sha256 !== expected && !hasPurgeMarker(texts[i]!))
      issues.push({
        path: ['lines', i, 'sha256'],
        message: `expected ${expected}, the content sha of line ${i + 1} of text`,
      });
    line.signatures?.forEach((sig, j) => {
      if (sig.sig_sha !== sha256Hex(sig.signature))
        issues.push({
          path: ['lines', i, 'signatures', j, 'sig_sha'],
          message: `expected ${sha256Hex(sig.signature)}, the sha256 of the signature`,
        });
    });
    line.parents.forEach((parent, j) => {
      used.add(parent);
      if (!parents.has(parent))
        issues.push({
          path: ['lines', i, 'parents', j],
          message: `expected one of the memory's parents, got ${parent}`,
        });
    });
  });
  const unused = memory.parents.filter((parent) => !used.has(parent));
  if (unused.length > 0)
    issues.push({
      path: ['parents'],
      message: `expected every parent to be a parent of some line, ${unused[0]} is not`,
    });
  return issues;
}

/**
 * `text` without the lines whose content sha is in `shas`, every other raw line kept as written
 * (its list marker and blank lines included). What a projection stores of a memory once some
 * of its lines are forgotten: the log keeps the text, the read side must not (issue 12).
 */
export function withoutMemoryLines(text: string, shas: ReadonlySet<string>): string {
  return text
    .split('\n')
    .filter((raw) => {
      const line = raw.trim().replace(LIST_MARKER, '').trim();
      return line === '' || !shas.has(contentSha256(line));
    })
    .join('\n');
}
