import type { StatementName } from './planned-write.js';
import { STATEMENT_SQL } from './statements.js';

/**
 * The planned statements that can drop or replace stored text: every one that is not an
 * INSERT (an UPDATE, a DELETE, a WITH leading into one). After a catch-up that ran one, the
 * seal truncates the -wal file, where the page as it was would otherwise survive (seal.ts).
 * Read from the SQL itself, so a new statement is counted without being listed; the upserts'
 * DO UPDATE clauses rewrite counters, positions and run records, never a text.
 */
export const TEXT_REWRITES: ReadonlySet<StatementName> = new Set(
  (Object.entries(STATEMENT_SQL) as [StatementName, string][])
    .filter(([, sql]) => !/^\s*INSERT\b/i.test(sql))
    .map(([name]) => name),
);
