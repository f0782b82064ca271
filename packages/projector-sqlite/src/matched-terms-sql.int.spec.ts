import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MATCHED_TERMS_SQL } from './matched-terms-sql.js';
import { migrate } from './migrations.js';

describe('MATCHED_TERMS_SQL: one FTS5 match per term, not one per (term, node)', () => {
  it('does not hand the node ids to FTS5 as a rowid constraint', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(true);
    const plan = (
      db
        .prepare(`EXPLAIN QUERY PLAN ${MATCHED_TERMS_SQL}`)
        .all({ matches: '["\\"a\\""]', ids: '[1]' }) as { detail: string }[]
    ).map((row) => row.detail);
    const fts = plan.filter((step) => /^SCAN f VIRTUAL TABLE/.test(step));
    expect(fts).toHaveLength(1);
    // FTS5's index string: "M<column>" a MATCH, "=" a rowid equality, which makes SQLite call
    // xFilter once per listed id and term.
    expect(fts[0]).toMatch(/INDEX \d+:M/);
    expect(fts[0]).not.toMatch(/INDEX \d+:[^ ]*=/);
    db.close();
  });
});
