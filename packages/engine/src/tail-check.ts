import { MemError } from '@mem/core';
import type { ChainBreak, EventLog } from '@mem/log';
import type { RecordedHead } from './recorded-heads.js';

/**
 * Compares the log's tail with a head a projection recorded at seq N: the log must still hold
 * seq N, and that line's sha256 must be the recorded head. The chain walk cannot see an edited,
 * deleted or truncated last line (nothing chains from it); this can. A torn trailing line is
 * never acknowledged, so no projection ever recorded it: it does not count here.
 * Returns the break naming project, segment and line, or null when the tail agrees.
 */
export async function findTailBreak(
  log: EventLog,
  project: string,
  recorded: RecordedHead,
): Promise<ChainBreak | null> {
  const head = await log.head(project);
  if (head.seq === recorded.seq && head.hash === recorded.head) return null;
  if (head.seq < recorded.seq) {
    // Trigger: lines the projections applied are gone. The place to name is where the first of
    // them was: the line after the last complete one of the newest segment.
    const tail = await log.tail(project);
    const segment = tail.segment ?? '000001.jsonl';
    const line = tail.lines + 1;
    const ends = head.seq === 0 ? 'the log holds no event' : `the log ends at seq ${head.seq}`;
    return tailBreak(
      project,
      segment,
      line,
      `${ends}, but ${recorded.by} recorded seq ${recorded.seq} (head ${recorded.head}): applied lines were deleted or the segment was truncated`,
    );
  }
  for await (const { event, hash, segment, line } of log.read(project, { fromSeq: recorded.seq })) {
    if (event.seq === recorded.seq && hash === recorded.head) return null;
    return tailBreak(
      project,
      segment,
      line,
      `seq ${event.seq} has sha256 ${hash}, but ${recorded.by} applied it with head ${recorded.head}: this line was changed after it was written`,
    );
  }
  return null;
}

function tailBreak(project: string, segment: string, line: number, message: string): ChainBreak {
  return {
    project,
    segment,
    line,
    code: 'CHAIN_BROKEN',
    message: `${project}/${segment}:${line}: ${message}`,
  };
}

/** The break as the error an append refuses with. */
export function tailBreakError(found: ChainBreak, recorded: RecordedHead): MemError {
  return new MemError(
    'CHAIN_BROKEN',
    `${found.message}; refusing to append after it (restore the log, or accept it with \`mem rebuild --from-log\`)`,
    {
      project: found.project,
      segment: found.segment,
      line: found.line,
      recorded_seq: recorded.seq,
      recorded_head: recorded.head,
      recorded_by: recorded.by,
    },
  );
}
