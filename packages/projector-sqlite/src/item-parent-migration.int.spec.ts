import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from './migrations.js';

describe('migration 0034 (item.parent)', () => {
  it("moves a store's parent edges into item.parent and leaves its other relations as edges", () => {
    const db = new Database(':memory:');
    try {
      const all = loadMigrations();
      expect(
        migrate(
          db,
          all.filter((m) => m.name < '0034'),
        ),
      ).toBe(true);
      const item = db.prepare(`INSERT INTO item (project, id, node_id, type, summary, created_seq,
        created_ts, updated_seq, updated_ts) VALUES (@project, @id, @node, 'task', 's', @node, 't', @node, 't')`);
      const edge = db.prepare(`INSERT INTO edge (project, child_level, child_sha, parent_level,
        parent_sha, kind) VALUES (@project, 'I', @child, 'I', @parent, @kind)`);
      ['it-a', 'it-b', 'it-c'].forEach((id, i) => item.run({ project: 'p', id, node: i + 1 }));
      item.run({ project: 'q', id: 'it-b', node: 4 });
      edge.run({ project: 'p', child: 'it-b', parent: 'it-a', kind: 'parent' });
      edge.run({ project: 'p', child: 'it-c', parent: 'it-a', kind: 'anchor' });
      edge.run({ project: 'p', child: 'it-c', parent: 'it-b', kind: 'link' });
      // A memory's provenance edge is no item relation, whatever its kind.
      edge.run({ project: 'p', child: 'm1', parent: 'e1', kind: 'provenance' });
      expect(migrate(db, all)).toBe(true);
      expect(db.prepare('SELECT project, id, parent FROM item ORDER BY project, id').all()).toEqual(
        [
          { project: 'p', id: 'it-a', parent: null },
          { project: 'p', id: 'it-b', parent: 'it-a' },
          { project: 'p', id: 'it-c', parent: null },
          { project: 'q', id: 'it-b', parent: null },
        ],
      );
      expect(
        db.prepare('SELECT child_sha, parent_sha, kind FROM edge ORDER BY child_sha, kind').all(),
      ).toEqual([
        { child_sha: 'it-c', parent_sha: 'it-a', kind: 'anchor' },
        { child_sha: 'it-c', parent_sha: 'it-b', kind: 'link' },
        { child_sha: 'm1', parent_sha: 'e1', kind: 'provenance' },
      ]);
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id FROM item INDEXED BY item_by_parent WHERE project = ? AND parent = ?`,
        )
        .all('p', 'it-a') as { detail: string }[];
      expect(plan.map((r) => r.detail).join('\n')).toContain(
        'item_by_parent (project=? AND parent=?)',
      );
    } finally {
      db.close();
    }
  });
});
