import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { itemScopeMatch, itemScopeSql, universalScope } from './item-fts.js';
import { loadMigrations, migrate } from './migrations.js';

// Names the spelling could confuse: the escapes themselves (x, xd), each separator, a name
// that spells another's escape, the longest name, and the system project.
const PROJECTS = [
  'ab',
  'a.b',
  'a_b',
  'a-b',
  'axb',
  'axxb',
  'axdb',
  'xd',
  'x.',
  '_system',
  'a'.repeat(64),
  'x.x_x-x'.repeat(10).slice(0, 64),
];

describe("item_fts's scope", () => {
  it('gives each project a token of its own: a scoped match finds that project and no other', () => {
    const db = new Database(':memory:');
    try {
      expect(migrate(db, loadMigrations())).toBe(true);
      const insert = db.prepare(`INSERT INTO item_fts (rowid, text, scope)
        SELECT @rowid, 'port the loader', ${itemScopeSql('r')} FROM (SELECT @project AS project,
          NULL AS deleted_at, 'active' AS attention, 'task' AS type, 'open' AS status) r`);
      PROJECTS.forEach((project, i) => insert.run({ rowid: i + 1, project }));
      const match = db.prepare('SELECT rowid FROM item_fts WHERE item_fts MATCH ? ORDER BY rowid');
      PROJECTS.forEach((project, i) => {
        const scoped = itemScopeMatch('"loader"', {
          projects: [project],
          live: true,
          attention: ['active'],
        });
        expect(match.all(scoped), project).toEqual([{ rowid: i + 1 }]);
      });
      const all = itemScopeMatch('"loader"', {
        projects: PROJECTS,
        live: true,
        attention: ['active'],
        type: 'task',
        status: 'open',
      });
      expect(match.all(all)).toHaveLength(PROJECTS.length);
      expect(itemScopeMatch('"loader"', { projects: [], live: true, attention: ['active'] })).toBe(
        null,
      );
    } finally {
      db.close();
    }
  });
});

describe('a scope term every row holds', () => {
  it('is left out of the MATCH, and only while every row holds it', () => {
    const db = new Database(':memory:');
    try {
      expect(migrate(db, loadMigrations())).toBe(true);
      const insert = db.prepare(`INSERT INTO item_fts (rowid, text, scope)
        SELECT @rowid, 'port the loader', ${itemScopeSql('r')} FROM (SELECT @project AS project,
          @deleted AS deleted_at, @attention AS attention, 'task' AS type, 'open' AS status) r`);
      // item_live_count as the orient triggers keep it: live items per project.
      const live = db.prepare(`INSERT INTO item_live_count (project, items) VALUES (@project, 1)
        ON CONFLICT (project) DO UPDATE SET items = items + 1`);
      let rowid = 0;
      const add = (project: string, deleted: string | null = null, attention = 'active') => {
        insert.run({ rowid: (rowid += 1), project, deleted, attention });
        if (deleted === null) live.run({ project });
      };
      const cache = new Map<string, Database.Statement>();
      const prepared = (sql: string) => cache.get(sql) ?? cache.set(sql, db.prepare(sql)).get(sql)!;
      const match = db.prepare('SELECT count(*) AS n FROM item_fts WHERE item_fts MATCH ?');
      const check = (filter: Parameters<typeof universalScope>[1]) => {
        const universal = universalScope(prepared, filter);
        const scoped = itemScopeMatch('"loader"', filter, universal)!;
        // The same rows as the MATCH with every term.
        expect(match.get(scoped)).toEqual(match.get(itemScopeMatch('"loader"', filter)));
        return { universal, scoped };
      };
      const a = { projects: ['a'], live: true, attention: ['active', 'reference'] as const };
      add('a');
      add('a', null, 'reference');
      expect(check(a)).toEqual({
        universal: { projects: true, live: true, attention: true },
        scoped: 'text : ("loader")',
      });
      add('b');
      expect(check(a).universal).toEqual({ projects: false, live: true, attention: true });
      expect(check({ ...a, projects: ['a', 'b'] }).universal.projects).toBe(true);
      add('b', '2026-01-01T00:00:00Z');
      expect(check({ ...a, projects: ['a', 'b'] }).universal).toEqual({
        projects: true,
        live: false,
        attention: true,
      });
      expect(check({ ...a, projects: ['b'] }).universal.projects).toBe(false);
      add('a', null, 'archive');
      expect(check({ ...a, projects: ['a', 'b'] }).universal.attention).toBe(false);
      expect(
        check({ ...a, projects: ['a', 'b'], attention: ['active', 'reference', 'archive'] })
          .universal.attention,
      ).toBe(true);
    } finally {
      db.close();
    }
  });
});
