import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LINE_NOTE_SQL } from './line-note-sql.js';
import { migrate } from './migrations.js';

describe('LINE_NOTE_SQL: a line’s live memory without its history', () => {
  it('walks the live memories (node_current_memory) and probes line_edge by its key for each', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(true);
    const plan = (
      db
        .prepare(`EXPLAIN QUERY PLAN ${LINE_NOTE_SQL}`)
        .all({ project: 'p', level: 'L1', line: 'x' }) as { detail: string }[]
    ).map((row) => row.detail);
    // Outer loop: the partial index of unsuperseded memories; inner: one probe on the full key.
    expect(plan[0]).toMatch(
      /^SEARCH m USING INDEX node_current_memory \(project=\? AND level=\?\)/,
    );
    expect(plan[1]).toMatch(/^SEARCH e USING (PRIMARY KEY|COVERING INDEX \w+) \(/);
    for (const column of ['project', 'level', 'line_sha', 'kind', 'target_sha'])
      expect(plan[1]).toContain(`${column}=?`);
    expect(plan.some((step) => /SCAN/.test(step))).toBe(false);
    db.close();
  });
});
