import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { itemScopeMatch, itemScopeSql } from './item-fts.js';
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
