import type { Sql } from '../backend/sql.js';
import type { SeqWrite } from './run-writes.js';
import type { StatementSql } from './statements.js';

/** The line shas a batch forgets: their vectors are neither written nor kept (migration 0006). */
export function forgottenShas(writes: readonly SeqWrite[]): Set<string> {
  return new Set(
    writes.flatMap(({ write }) => (write.statement === 'forget' ? write.params.lines : [])),
  );
}

/** The texts of `shas` the batch itself brings in (a rebuild replays a line and its forget together). */
function batchTexts(writes: readonly SeqWrite[], shas: ReadonlySet<string>): string[] {
  return writes.flatMap(({ write }) => {
    if (write.statement === 'insertLines')
      return write.params.lines.filter((l) => shas.has(l.sha256)).map((l) => l.text);
    if (write.statement === 'insertSuccessorLines')
      return shas.has(write.params.after_sha256) ? [write.params.text] : [];
    if (write.statement === 'insertAddedLine')
      return shas.has(write.params.sha256) ? [write.params.text] : [];
    return [];
  });
}

/**
 * Every text the batch forgets, read before forget blanks the rows: the embedding cache keys
 * its vectors by text, so these are what it must drop once the batch is committed.
 */
export async function forgottenTexts(
  tx: Sql,
  sql: StatementSql,
  project: string,
  writes: readonly SeqWrite[],
  shas: ReadonlySet<string>,
): Promise<string[]> {
  if (shas.size === 0) return [];
  const stored = await tx.query<{ text: string }>(sql.forgottenTexts, [project, [...shas]]);
  return [...new Set([...stored.map((r) => r.text), ...batchTexts(writes, shas)])].sort();
}
