import { MemError, memoryLines } from '@mem/core';
import type { EventLog } from '@mem/log';

const SHA = /^[0-9a-f]{64}$/;
/** Why a floor: a purge matches in any letter case everywhere, so "ab" would shred the log. */
export const PURGE_MIN_CHARS = 6;

/**
 * The text a purge REF names: a 64-hex sha of an evidence, memory, reference or memory line of
 * `project` is that node's text; anything else is the text itself. INVALID_INPUT for a text
 * under PURGE_MIN_CHARS characters, NOT_FOUND for a sha that names nothing.
 */
export async function resolvePurgeRef(
  log: EventLog,
  project: string,
  ref: string,
): Promise<string> {
  if (!SHA.test(ref)) {
    if (ref.trim().length < PURGE_MIN_CHARS) {
      throw new MemError(
        'INVALID_INPUT',
        `ref: expected the exact text to purge (at least ${PURGE_MIN_CHARS} characters) or the sha256 of a node, got ${ref.trim().length} characters`,
        { field: 'ref', min_chars: PURGE_MIN_CHARS },
      );
    }
    return ref;
  }
  for await (const { event } of log.read(project)) {
    if (
      (event.type === 'evidence' || event.type === 'reference' || event.type === 'memory') &&
      event.sha256 === ref
    )
      return event.text;
    if (event.type === 'memory') {
      const line = memoryLines(event).find((l) => l.sha256 === ref);
      if (line) return line.text;
    }
  }
  throw new MemError(
    'NOT_FOUND',
    `no evidence, memory, reference or memory line with sha256 ${ref} in ${project}`,
    { field: 'ref', project, ref },
  );
}
