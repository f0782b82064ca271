import { withoutMemoryLines } from '@mem/core';
import type Database from 'better-sqlite3';
import { canonicalJson } from './canonical-json.js';

/*
 * SQL functions the forget statements call, so the planner stays a pure function of one event
 * while the rows it rewrites are the ones already applied. `shas` is a JSON array of line
 * content shas. Both are deterministic (the same arguments give the same bytes), which keeps a
 * rebuild and an incremental catch-up byte for byte equal.
 */

function shaSet(shas: string): ReadonlySet<string> {
  return new Set(JSON.parse(shas) as string[]);
}

/** A memory's meta with its `lines` entries for `shas` dropped, so `lines` stays one entry per line of its text. */
function metaWithoutLines(meta: string, shas: ReadonlySet<string>): string {
  const value = JSON.parse(meta) as { lines?: { sha256: string }[] };
  if (!Array.isArray(value.lines)) return meta;
  return canonicalJson({ ...value, lines: value.lines.filter((l) => !shas.has(l.sha256)) });
}

export function registerForgottenText(db: Database.Database): void {
  db.function('mem_text_without_lines', { deterministic: true }, (text: unknown, shas: unknown) =>
    withoutMemoryLines(String(text), shaSet(String(shas))),
  );
  db.function('mem_meta_without_lines', { deterministic: true }, (meta: unknown, shas: unknown) =>
    metaWithoutLines(String(meta), shaSet(String(shas))),
  );
}
