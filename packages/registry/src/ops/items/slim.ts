import { z } from 'zod';
import { truncateUtf8, utf8Bytes } from '@mem/core';
import type { ItemActivityRow } from '@mem/projector-sqlite';
import type { ItemState } from './ledger.js';

/*
 * The shapes the load path returns (seed 000 §6.2): `ref` where an item is mentioned, `slim`
 * where it is listed. Fixed shapes are what make a byte budget arithmetic rather than estimate.
 */

/** A one-line summary in a listing: its first line, at most this many UTF-8 bytes. */
export const LINE_BYTES = 200;

/** `ref`: an item mentioned (a link target). */
export const refShape = z.object({ id: z.string(), summary: z.string() });
export type Ref = z.infer<typeof refShape>;

/**
 * An always-loaded rule or fact in T0. Trigger: last activity is left out here. Why: the rule
 * and fact sections are the cacheable prefix; a link or log on a fact would otherwise change its
 * bytes while its membership and text stay. Outcome: only membership and text move the prefix.
 */
export const knowledgeShape = z.object({
  id: z.string(),
  project: z.string(),
  summary: z.string(),
});
export type KnowledgeEntry = z.infer<typeof knowledgeShape>;

/** `slim`: type and last activity; status and open count only for work items (omitted, not nulled, on knowledge). */
export const slimShape = z.object({
  id: z.string(),
  project: z.string(),
  type: z.string(),
  summary: z.string(),
  last_activity: z.string(),
  status: z.string().optional(),
  open_count: z.number().optional(),
  /** `open · N days unresolved` from the caller's clock: T0's threads carry it (last, so it moves no other byte). */
  open_marker: z.string().optional(),
});
export type Slim = z.infer<typeof slimShape>;

/** The first line of a summary within LINE_BYTES, never cut inside a character. */
export function oneLine(summary: string): string {
  const first = summary.split('\n', 1)[0] ?? '';
  return truncateUtf8(first === summary ? summary : `${first} …`, LINE_BYTES);
}

export function knowledgeEntry(
  item: Pick<ItemState, 'id' | 'project' | 'summary'>,
): KnowledgeEntry {
  return { id: item.id, project: item.project, summary: item.summary };
}

/** The UTF-8 bytes of a list as JSON: what every section's budget counts. */
export function listBytes(entries: readonly unknown[]): number {
  return utf8Bytes(JSON.stringify(entries));
}

/** When an item or anything under it was last written: the ts, and its seq to order writes of one instant. */
export interface Activity {
  ts: string;
  seq: number;
}

/** Most recent activity first; the caller breaks what is left by id. */
export function byRecency(a: Activity, b: Activity): number {
  return b.ts.localeCompare(a.ts) || b.seq - a.seq;
}

/** A projection row's last activity, as lastActivity derives it from the ledger. */
export function activityOf(row: ItemActivityRow): Activity {
  return { ts: row.activity_ts, seq: row.activity_seq };
}

/** slimOf for a row of the SQLite projection, which carries its activity and open count. */
export function slimOfRow(row: ItemActivityRow): Slim {
  const base = {
    id: row.id,
    project: row.project,
    type: row.type,
    summary: oneLine(row.summary),
    last_activity: row.activity_ts,
  };
  return row.status === null ? base : { ...base, status: row.status, open_count: row.open_count };
}

/**
 * The longest prefix of `entries` whose JSON fits `cap` bytes, and the exact count left out.
 * Order decides what survives, so callers sort first.
 */
export function fitting<T>(entries: readonly T[], cap: number): { items: T[]; omitted: number } {
  const items = fittingPrefix(entries, cap);
  return { items, omitted: entries.length - items.length };
}

/**
 * The longest prefix of `entries` whose JSON fits `cap` bytes, reading no entry past the first
 * that does not fit (an iterator is returned there): what a lazy read of a long list needs.
 */
export function fittingPrefix<T>(entries: Iterable<T>, cap: number): T[] {
  const items: T[] = [];
  let bytes = 2;
  for (const entry of entries) {
    const size = utf8Bytes(JSON.stringify(entry)) + (items.length > 0 ? 1 : 0);
    if (bytes + size > cap) break;
    items.push(entry);
    bytes += size;
  }
  return items;
}
