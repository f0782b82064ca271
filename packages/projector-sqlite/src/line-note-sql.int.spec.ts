import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LINE_NOTES_BY_LINE_SQL, LINE_NOTE_SQL, LINE_MEMORY_EDGES_SQL } from './line-note-sql.js';
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

  it('walks a short-lived line from its own edges: line_edge by its key, then each memory by its key', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(true);
    const plan = (sql: string) =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ lines: '[]', cap: 32 }) as {
          detail: string;
        }[]
      )
        .map((row) => row.detail)
        .filter((step) => /^(SEARCH|SCAN) [a-z]/.test(step));
    const byLine = plan(LINE_NOTES_BY_LINE_SQL);
    expect(byLine).toHaveLength(4);
    expect(byLine[0]).toMatch(/^SCAN j VIRTUAL TABLE/);
    expect(byLine[2]).toMatch(
      /^SEARCH e USING PRIMARY KEY \(project=\? AND level=\? AND line_sha=\? AND kind=\?\)/,
    );
    expect(byLine[3]).toMatch(/^SEARCH c USING INDEX \w+ \(project=\? AND sha256=\? AND level=\?/);
    const counted = plan(LINE_MEMORY_EDGES_SQL);
    expect(counted.filter((step) => step.startsWith('SEARCH'))).toEqual([
      'SEARCH e USING PRIMARY KEY (project=? AND level=? AND line_sha=? AND kind=?)',
    ]);
    db.close();
  });
});
