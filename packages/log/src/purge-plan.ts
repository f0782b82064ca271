import { MemError, sha256Hex } from '@mem/core';
import { decodeLine, type LineLocation } from './line-codec.js';

/** One segment's complete lines (bytes without `\n`), in order. */
export interface SegmentLines {
  segment: string;
  file: string;
  lines: Buffer[];
}

/** A line the purge rewrites. */
export interface PurgedLine {
  segment: string;
  /** 1-based line number within the segment. */
  line: number;
  seq: number;
  old: string;
  new: string;
  bytes: Buffer;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every string in `value` with each match replaced; `prev` (a hash, the chain) is never touched. */
function replaceStrings(value: unknown, pattern: RegExp, marker: string, key?: string): unknown {
  if (typeof value === 'string') return key === 'prev' ? value : value.replace(pattern, marker);
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, pattern, marker));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceStrings(v, pattern, marker, k);
    return out;
  }
  return value;
}

/**
 * The lines of a project that hold `text` (in any letter case), each with `marker` in its
 * place and its old and new line hash. Pure: no I/O. Key order is kept (JSON.parse keeps it and
 * every line was written by JSON.stringify), so a line's other bytes do not change. A
 * rewritten line must still be a valid event naming no trace of the text, or the purge is
 * refused (INVALID_INPUT naming the line) before anything is written.
 */
export function planPurge(
  project: string,
  segments: readonly SegmentLines[],
  text: string,
  marker: string,
): PurgedLine[] {
  const pattern = new RegExp(escapeRegExp(text), 'giu');
  const probe = new RegExp(escapeRegExp(text), 'iu');
  const out: PurgedLine[] = [];
  for (const { segment, file, lines } of segments) {
    lines.forEach((bytes, index) => {
      const raw = bytes.toString('utf8');
      const replaced = JSON.stringify(replaceStrings(JSON.parse(raw), pattern, marker));
      if (replaced === raw && !probe.test(raw)) return;
      const at: LineLocation = { project, segment, file, line: index + 1 };
      const rewritten = Buffer.from(replaced, 'utf8');
      if (probe.test(replaced)) {
        throw new MemError(
          'INVALID_INPUT',
          `${file}:${index + 1}: the text occurs there in a form a purge cannot replace (escaped, or split across fields)`,
          { ...at, field: 'ref' },
        );
      }
      let seq: number;
      try {
        seq = decodeLine(rewritten, at).seq;
      } catch (error) {
        throw new MemError(
          'INVALID_INPUT',
          `${file}:${index + 1}: replacing the text there would leave an invalid event (${(error as Error).message})`,
          { ...at, field: 'ref' },
          { cause: error },
        );
      }
      out.push({
        segment,
        line: index + 1,
        seq,
        old: sha256Hex(bytes),
        new: sha256Hex(rewritten),
        bytes: rewritten,
      });
    });
  }
  return out;
}
