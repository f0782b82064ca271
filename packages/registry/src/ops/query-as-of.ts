import { z } from 'zod';
import { MemError, dayStart } from '@mem/core';
import type { Engine } from '@mem/engine';
import type { AsOfPoint } from '../as-of-store.js';

const SEQ = /^\d+$/;
const isIsoInstant = (value: string) => z.iso.datetime({ offset: true }).safeParse(value).success;

/**
 * `--as-of`: a log seq of the one project asked (digits), an ISO 8601 instant (with `Z` or an
 * offset), or a date alone, the start of that day in UTC (dayStart, as item fields read one).
 * A string on every surface, so a query parameter, a flag and an MCP argument parse alike.
 */
export const asOfInput = z
  .string()
  .trim()
  .refine((value) => SEQ.test(value) || isIsoInstant(dayStart(value)), {
    message:
      'expected a log seq (an integer ≥ 0), an ISO 8601 timestamp with a zone, e.g. 2026-12-01T17:00:00Z, or a date such as 2026-12-01 (its start: 00:00 UTC)',
  })
  .transform(dayStart);

/**
 * The seq each project stood at. A seq names one project's log, so it needs exactly one
 * project named, and no seq past that log's head (INVALID_INPUT naming the head). A timestamp
 * maps, per project, to the newest seq whose event ts is at or before it; before a project's
 * first event that is 0: the project held nothing then, which is an answer, not an error.
 */
export async function resolveAsOf(
  engine: Engine,
  asOf: string,
  named: readonly string[] | undefined,
  projects: readonly string[],
): Promise<AsOfPoint[]> {
  if (SEQ.test(asOf)) {
    const [project] = named ?? [];
    if (!project || new Set(named).size !== 1)
      throw new MemError(
        'INVALID_INPUT',
        `query: as_of: a log seq names one project's log: name exactly one project (or give an ISO 8601 timestamp)`,
        { field: 'as_of', expected: 'exactly one project with a seq' },
      );
    const seq = Number(asOf);
    const head = (await engine.head(project)).seq;
    if (seq > head)
      throw new MemError(
        'INVALID_INPUT',
        `query: as_of: seq ${asOf} is past the head of ${project}'s log (seq ${head})`,
        { field: 'as_of', expected: `a seq from 0 to ${head}`, project, head },
      );
    return [{ project, seq }];
  }
  const instant = Date.parse(asOf);
  const points: AsOfPoint[] = [];
  for (const project of projects) {
    let seq = 0;
    // Not the first later event: a ts is the writer's clock, so the newest seq at or before it.
    for await (const { event } of engine.read(project))
      if (Date.parse(event.ts) <= instant) seq = event.seq;
    points.push({ project, seq });
  }
  return points;
}

/** What an as-of answer is, in words: the points, the legs, and that forgetting is not undone. */
export function asOfNote(points: readonly AsOfPoint[]): string {
  const at = points.map((p) => `${p.project} seq ${p.seq}`).join(', ');
  const empty = points.filter((p) => p.seq === 0).map((p) => p.project);
  return [
    `as the log stood at ${at || 'no project'}, replayed into a scratch store`,
    'keyword recall only (the vector index holds only the lines live now)',
    'forgotten text never returns, whatever the as-of: a deliberate deletion is not history',
    ...(empty.length > 0
      ? [`${empty.join(', ')}: before ${empty.length === 1 ? 'its' : 'their'} first event`]
      : []),
  ].join('; ');
}
