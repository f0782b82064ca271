import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { readChainHead } from './chain-head.js';
import { countNewlines, scanSegmentEnd } from './segment-scan.js';
import type { LogTail } from './types.js';

/**
 * Where a project's log ends: the head, the newest segment and how many complete lines it
 * holds (a torn trailing line is not counted). Counting reads the whole newest segment, so
 * this is for locating a problem, not for the write path.
 */
export function readLogTail(
  projectDir: string,
  project: string,
  segments: readonly string[],
): LogTail {
  const head = readChainHead(projectDir, project, segments);
  const newest = segments.at(-1);
  if (newest === undefined) return { head, segment: null, lines: 0 };
  const fd = openSync(join(projectDir, newest), 'r');
  try {
    const end = scanSegmentEnd(fd, fstatSync(fd).size);
    return { head, segment: newest, lines: countNewlines(fd, end.end) };
  } finally {
    closeSync(fd);
  }
}
