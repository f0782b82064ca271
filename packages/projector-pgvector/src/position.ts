import type { ProjectionPosition } from '@mem/engine';
import type { Sql } from './backend/sql.js';
import type { StatementSql } from './apply/statements.js';

/** Last applied position of `project`, or null. */
export async function readPosition(
  sql: Sql,
  statements: StatementSql,
  project: string,
): Promise<ProjectionPosition | null> {
  const [row] = await sql.query<{ seq: number; head: string }>(statements.readPosition, [project]);
  return row ? { seq: Number(row.seq), head: row.head } : null;
}
