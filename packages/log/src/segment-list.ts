import { existsSync, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import { FIRST_SEGMENT, nextSegmentName, segmentName, sortSegments } from './segment-name.js';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** A project's segments in log order; none when the project has no directory. */
export async function listSegments(projectDir: string): Promise<string[]> {
  try {
    return sortSegments(await readdir(projectDir));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** Synchronous listSegments, for the writer's critical section. */
export function listSegmentsSync(projectDir: string): string[] {
  try {
    return sortSegments(readdirSync(projectDir));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/**
 * The newest segment. With a `hint` (the last segment this process wrote) two stats replace a
 * directory listing: the hint is still the newest when the segment after it does not exist.
 */
export function lastSegmentSync(projectDir: string, hint?: string): string {
  if (
    hint !== undefined &&
    existsSync(join(projectDir, hint)) &&
    !existsSync(join(projectDir, nextSegmentName(hint)))
  )
    return hint;
  return listSegmentsSync(projectDir).at(-1) ?? FIRST_SEGMENT;
}

/** Throws CHAIN_BROKEN unless the segments are 000001.jsonl, 000002.jsonl, … without gaps. */
export function checkNumbering(
  project: string,
  projectDir: string,
  segments: readonly string[],
): void {
  segments.forEach((segment, index) => {
    const expected = segmentName(index + 1);
    if (segment === expected) return;
    const after = index === 0 ? 'the log starts with it' : `it follows ${segments[index - 1]}`;
    throw new MemError(
      'CHAIN_BROKEN',
      `${join(projectDir, segment)}:1: segment ${expected} is missing (${after}); segments are numbered from 000001.jsonl without gaps`,
      { project, segment, file: join(projectDir, segment), line: 1, missing: expected },
    );
  });
}
