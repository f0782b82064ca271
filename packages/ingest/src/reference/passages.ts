import { contentSha256, scrubSecrets } from '@mem/core';
import { markdownSections, type Section } from './sections.js';

/**
 * One passage of a reference document, as a `reference` event carries it. Level R: it is
 * reference text, never evidence, and never a chunk — the extractor's LoopStep refuses a value
 * with a `level` (loop.ts), so a passage cannot be handed to the gated loop by mistake.
 */
export interface ReferencePassage {
  readonly level: 'R';
  readonly heading_path: readonly string[];
  /** The passage as written (heading line included), secrets scrubbed. */
  readonly text: string;
  /** contentSha256(text): with the source URI, the passage's identity. */
  readonly sha256: string;
}

/** Longest passage, in characters: a longer section is split at blank lines (then lines). */
export const MAX_PASSAGE_CHARS = 8_000;

/** Packs `lines` into pieces of at most `max` characters, breaking at blank lines where it can. */
function pack(lines: readonly string[], max: number): string[] {
  const pieces: string[] = [];
  let piece: string[] = [];
  let size = 0;
  let lastBlank = -1;
  const flush = (upTo: number) => {
    pieces.push(piece.slice(0, upTo).join('\n'));
    piece = piece.slice(upTo);
    size = piece.reduce((n, l) => n + l.length + 1, 0);
    lastBlank = -1;
  };
  for (const raw of lines) {
    // A single line longer than a passage is cut into pieces of its own.
    const parts = raw.length <= max ? [raw] : (raw.match(new RegExp(`[^]{1,${max}}`, 'g')) ?? []);
    for (const line of parts) {
      if (size + line.length + 1 > max && piece.length > 0)
        flush(lastBlank > 0 ? lastBlank : piece.length);
      if (line.trim() === '') lastBlank = piece.length;
      piece.push(line);
      size += line.length + 1;
    }
  }
  if (piece.length > 0) pieces.push(piece.join('\n'));
  return pieces.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * The passages of one document: a markdown file splits at its headings, a plain-text file is
 * one section. Secrets are scrubbed before hashing (the log's payload check scrubs every string
 * and would otherwise refuse the sha). A passage repeated within the file is kept once.
 */
export function documentPassages(text: string, markdown: boolean): ReferencePassage[] {
  const sections: Section[] = markdown
    ? markdownSections(text)
    : [{ heading_path: [], lines: text.replace(/\r\n?/g, '\n').split('\n') }];
  const seen = new Set<string>();
  const out: ReferencePassage[] = [];
  for (const section of sections) {
    for (const piece of pack(section.lines, MAX_PASSAGE_CHARS)) {
      const scrubbed = scrubSecrets(piece).text;
      const sha256 = contentSha256(scrubbed);
      if (seen.has(sha256)) continue;
      seen.add(sha256);
      out.push({ level: 'R', heading_path: section.heading_path, text: scrubbed, sha256 });
    }
  }
  return out;
}
