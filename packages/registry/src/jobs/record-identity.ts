import { sha256Hex } from '@mem/core';
import type { IngestRecord } from './accepted-records.js';

/**
 * A record's identity across jobs: its content and its own id (a transcript entry's uuid), never
 * its position. Line numbers are left out on purpose: the same record posted in a longer (or
 * shorter) transcript sits on another line and is still the same record.
 */
export function recordIdentity(record: IngestRecord): string {
  return sha256Hex(JSON.stringify([record.role, record.text, record.timestamp, record.entry ?? null]));
}

/** The records not in `known`, and how many were. */
export function newRecords(records: readonly IngestRecord[], known: ReadonlySet<string>): { fresh: IngestRecord[]; skipped: number } {
  const fresh = records.filter((record) => !known.has(recordIdentity(record)));
  return { fresh, skipped: records.length - fresh.length };
}
