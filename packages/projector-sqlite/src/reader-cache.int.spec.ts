import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { READER_CACHE_KIB, openItemStore } from './item-store.js';
import { itemStorePath } from './store-files.js';

describe('a read connection of the item store', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    root.cleanup();
  });

  it('caches up to READER_CACHE_KIB of the store (a find joins hits to items at random)', async () => {
    const { db } = await sealedStoreOf(root.target, 'demo', [
      { type: 'item_added', item_type: 'fact', summary: 'A fact' },
    ]);
    db.close();
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    const store = openItemStore(itemStorePath(root.target.stateDir));
    try {
      expect(READER_CACHE_KIB).toBeGreaterThanOrEqual(32 * 1024);
      expect(pragma).toHaveBeenCalledWith(`cache_size = -${READER_CACHE_KIB}`);
      const connection = pragma.mock.contexts[0] as Database.Database;
      expect(connection.pragma('cache_size', { simple: true })).toBe(-READER_CACHE_KIB);
    } finally {
      store.close();
    }
  });
});
