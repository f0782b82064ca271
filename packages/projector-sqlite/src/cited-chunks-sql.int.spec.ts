import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CITED_CHUNKS_SQL } from './cited-chunks-sql.js';
import { migrate } from './migrations.js';

describe('CITED_CHUNKS_SQL: the chunks a page cites, by sha', () => {
  it('probes chunk_by_sha for each sha and never scans the project’s chunks', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(true);
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN ${CITED_CHUNKS_SQL}`).all('p', '["a","b"]') as {
        detail: string;
      }[]
    ).map((row) => row.detail);
    expect(
      plan.some((step) =>
        /^SEARCH c USING INDEX chunk_by_sha \(project=\? AND sha256=\?\)/.test(step),
      ),
      plan.join('\n'),
    ).toBe(true);
    expect(
      plan.some((step) => /SCAN c\b/.test(step)),
      plan.join('\n'),
    ).toBe(false);
    db.close();
  });
});
