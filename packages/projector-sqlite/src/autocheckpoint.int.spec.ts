import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTOCHECKPOINT_PAGES, PAGE_SIZE, openWritable } from './open-database.js';

/*
 * A commit checkpoints only once the -wal holds AUTOCHECKPOINT_PAGES pages: an add_items of 100
 * writes ~1,080 pages at 100 k items, and SQLite's default of 1,000 copied them all into the file
 * after every such commit. What a checkpoint does shows in the database file: it grows only when
 * pages are copied out of the -wal.
 */
describe('the item store checkpoints past AUTOCHECKPOINT_PAGES pages of -wal', () => {
  it('keeps a 1,500-page commit in the -wal, and checkpoints once the -wal passes the limit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-autocheckpoint-'));
    const path = join(dir, 'items.sqlite');
    const db = openWritable(path);
    try {
      db.exec('CREATE TABLE page (body BLOB NOT NULL)');
      // One row of 3,000 bytes fills most of a page: n rows write about n pages.
      const write = db.transaction((rows: number) => {
        const insert = db.prepare('INSERT INTO page (body) VALUES (randomblob(3000))');
        for (let i = 0; i < rows; i++) insert.run();
      });
      const pages = () => statSync(path).size / PAGE_SIZE;
      write(1500);
      expect(pages()).toBeLessThan(10);
      write(AUTOCHECKPOINT_PAGES - 1500 + 100);
      expect(pages()).toBeGreaterThan(AUTOCHECKPOINT_PAGES);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
