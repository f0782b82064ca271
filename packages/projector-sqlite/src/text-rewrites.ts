import type { StatementName } from './planned-write.js';
import { STATEMENT_SQL } from './statements.js';

/**
 * Statements that are not plain INSERTs yet keep every stored text: they only mark rows
 * superseded or tombstoned (superseded_by, deleted_at; node_fts follows only a change of text),
 * or insert through a WITH. A memory and a tombstone run them on every catch-up; counted as
 * rewrites, each such catch-up ended in a TRUNCATE checkpoint (two fsyncs) for no text.
 * text-rewrites.unit.spec.ts checks each one's SQL assigns no other column and deletes nothing.
 */
export const KEEPS_TEXT: ReadonlySet<StatementName> = new Set<StatementName>([
  'supersedeMemoryChain',
  'reinstateMemory',
  'refreshLines',
  'applyTombstone',
  'holdSuccessors',
  'supersedeLineNode',
  'supersedeMemory',
]);

/**
 * The planned statements that can drop or replace stored text: every one that is not an
 * INSERT (an UPDATE, a DELETE, a WITH leading into one), less those in KEEPS_TEXT. After a
 * catch-up that ran one, the seal truncates the -wal file, where the page as it was would
 * otherwise survive (seal.ts). Read from the SQL itself, so a new statement is counted without
 * being listed; the upserts' DO UPDATE clauses rewrite counters, positions and run records,
 * never a text.
 */
export const TEXT_REWRITES: ReadonlySet<StatementName> = new Set(
  (Object.entries(STATEMENT_SQL) as [StatementName, string][])
    .filter(([name, sql]) => !/^\s*INSERT\b/i.test(sql) && !KEEPS_TEXT.has(name))
    .map(([name]) => name),
);
