import { MemError, contentSha256, splitMemoryLines, type Payload } from '@mem/core';
import type { AppendFold } from '../append-fold.js';
import type { AppendInput } from '../append-provenance.js';

/** The lines of memory text a payload writes: a memory's lines, a supersession's new text, an added line. */
function writtenLines(payload: Payload): string[] {
  if (payload.type === 'memory') return splitMemoryLines(payload.text);
  if (payload.type === 'superseded' || payload.type === 'line_added') return [payload.text];
  return [];
}

/** Whether admitAgainstTombstones reads the log for this batch: only when it writes memory text. */
export function tombstonesReadLog(parsed: readonly Payload[]): boolean {
  return parsed.some((payload) => writtenLines(payload).length > 0);
}

/**
 * Tombstones refuse their own return (DESIGN §9): every line of memory text the batch writes is
 * checked against the project's `forgotten` events, the exact hash and then its rewordings.
 * Unforced, the first hit is FORGOTTEN naming the tombstone, and nothing is written. Forced,
 * the batch goes through and a `resurfaced` event per hit is returned to append with it (the
 * review queue reads them). The payloads are validated already (validateBatch). Asks for the
 * log's fold (append-fold.ts) only when the batch writes memory text.
 */
export async function admitAgainstTombstones(
  fold: () => Promise<AppendFold>,
  project: string,
  parsed: readonly Payload[],
  force: boolean,
  input: AppendInput = {},
): Promise<Payload[]> {
  if (!tombstonesReadLog(parsed)) return [];
  const { tombstones } = await fold();
  if (tombstones.size === 0) return [];
  const resurfaced: Payload[] = [];
  for (const [index, payload] of parsed.entries()) {
    for (const text of writtenLines(payload)) {
      const found = tombstones.match(text);
      if (!found) continue;
      if (!force) {
        const line = input.lines?.[index] ?? index + 1;
        const where = `${input.file !== undefined ? `${input.file}:` : ''}line ${line}`;
        throw new MemError(
          'FORGOTTEN',
          `${where}: ${payload.type} text ${found.match === 'exact' ? 'repeats' : 'rewords'} a line forgotten by tombstone ${found.tombstone} (seq ${found.seq}, reason: ${found.reason}); nothing was appended (write it anyway with --force)`,
          {
            project,
            line,
            ...(input.file !== undefined ? { file: input.file } : {}),
            tombstone: found.tombstone,
            tombstone_seq: found.seq,
            match: found.match,
          },
        );
      }
      resurfaced.push({
        type: 'resurfaced',
        tombstone: found.tombstone,
        line_sha256: contentSha256(text),
        match: found.match,
      });
    }
  }
  return resurfaced;
}
