import { sha256Hex } from '@mem/core';
import type { IngestRecord } from './accepted-records.js';

/**
 * A record's identity across jobs: its content and its own id (a transcript entry's uuid), never
 * its position. Line numbers are left out on purpose: the same record posted in a longer (or
 * shorter) transcript sits on another line and is still the same record.
 */
export function recordIdentity(record: IngestRecord): string {
  return sha256Hex(
    JSON.stringify([record.role, record.text, record.timestamp, record.entry ?? null]),
  );
}

/**
 * Each record's identity with its occurrence among equal records of the same job (`<sha>#2` is
 * the second). Trigger: plain `{role, text}` records carry no id or time, so a second "yes" in
 * a later job would look like the first. Why: an earlier job that held one "yes" must not
 * swallow the two a later job sends. Outcome: a later job skips as many equal records as the
 * most any earlier job held, and keeps the rest.
 */
export function occurrenceKeys(records: readonly IngestRecord[]): string[] {
  const seen = new Map<string, number>();
  return records.map((record) => {
    const identity = recordIdentity(record);
    const nth = (seen.get(identity) ?? 0) + 1;
    seen.set(identity, nth);
    return `${identity}#${nth}`;
  });
}

/** The records not in `known` (occurrence keys of earlier jobs), and how many were. */
export function newRecords(
  records: readonly IngestRecord[],
  known: ReadonlySet<string>,
): { fresh: IngestRecord[]; skipped: number } {
  const keys = occurrenceKeys(records);
  const fresh = records.filter((_, index) => !known.has(keys[index]!));
  return { fresh, skipped: records.length - fresh.length };
}
