import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { genesisHash, isMemError, sha256Hex } from '@mem/core';
import type { ChainLink } from './batch.js';
import { decodeLine, lineError } from './line-codec.js';
import { countNewlines, readRange, scanSegmentEnd, type SegmentEnd } from './segment-scan.js';

/** An already open newest segment, so the writer does not open or scan it twice. */
export interface OpenSegment {
  segment: string;
  fd: number;
  end: SegmentEnd;
}

/**
 * The chain head: seq and sha256 of the last complete line of the newest segment that has one
 * (genesis when none does). Reads only line ends, backwards. A trailing fragment of the newest
 * segment is ignored; one at the end of an older segment is LOG_CORRUPT. The head line must be
 * a valid event of `project`, or nothing may be chained after it: LOG_CORRUPT naming the line.
 */
export function readChainHead(
  projectDir: string,
  project: string,
  segments: readonly string[],
  newest?: OpenSegment,
): ChainLink {
  for (let index = segments.length - 1; index >= 0; index -= 1) {
    const segment = segments[index]!;
    const file = join(projectDir, segment);
    const isNewest = index === segments.length - 1;
    const open = isNewest && newest?.segment === segment ? newest : undefined;
    const fd = open ? open.fd : openSync(file, 'r');
    try {
      const end = open ? open.end : scanSegmentEnd(fd, fstatSync(fd).size);
      if (!isNewest && end.end !== end.size) {
        throw lineError(
          'LOG_CORRUPT',
          { project, segment, file, line: countNewlines(fd, end.size) + 1 },
          'the last line of a segment that is not the newest has no "\\n"',
        );
      }
      if (end.lineStart === -1) continue;
      const bytes = readRange(fd, end.lineStart, end.end - 1);
      try {
        const event = decodeLine(bytes, { project, segment, file, line: 0 });
        return { seq: event.seq, hash: sha256Hex(bytes) };
      } catch (error) {
        if (!isMemError(error)) throw error;
        // Trigger: the head line is unreadable. Why: chaining after it would hide the damage.
        // Outcome: refuse, naming the line (counted only now, on the error path).
        const at = { project, segment, file, line: countNewlines(fd, end.end) };
        throw lineError(
          'LOG_CORRUPT',
          at,
          `the last line is not a valid event of ${project} (${error.code}), so nothing can be chained after it`,
          error,
        );
      }
    } finally {
      if (!open) closeSync(fd);
    }
  }
  return { seq: 0, hash: genesisHash(project) };
}
