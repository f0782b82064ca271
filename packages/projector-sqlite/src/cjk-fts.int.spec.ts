import { itemId } from '@mem/core';
import { projectStretch } from '@mem/engine';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, projected, tempRoot } from '../test/support.js';
import { digestStore, nodeFtsIntegrity } from './digest.js';
import type { ItemStoreHandle } from './handle.js';
import { projectorSqlite } from './projector.js';
import { sealStore } from './seal.js';

/*
 * node_fts and item_fts index each CJK run as bigrams (fts-text.ts's mem_fts_text), however
 * they are written: a batch's flush (its old text removed as it was indexed), the canonical
 * seal's fresh build (fts-build.ts), one event a batch. And `mem verify`'s check of node_fts
 * against node still holds where FTS5's own (which reads node.text as it is) cannot.
 */
const P = 'demo';
const A = itemId(P, 1);
const B = itemId(P, 2);
const C = itemId(P, 3);

const payloads = [
  { type: 'item_added', item_type: 'fact', summary: 'テーマローダーはキャッシュを使う。' },
  { type: 'item_added', item_type: 'fact', summary: '我们在服务器上部署了缓存系统。' },
  { type: 'item_added', item_type: 'task', summary: '테마로더는캐시를사용한다.' },
  { type: 'item_updated', item: A, summary: 'ローダーは東京都のサーバーにある。', reason: 'moved' },
  { type: 'item_updated', item: B, summary: 'The cache moved to Redis.', reason: 'english' },
  { type: 'item_deleted', item: C, reason: 'duplicate' },
  { type: 'item_added', item_type: 'fact', summary: 'Redisのｷｬｯｼｭ設定', detail: 'ＡＰＩ 키' },
];

describe('node_fts and item_fts over CJK text', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('a batch, the canonical seal and one event a batch index the same bigrams, and verify’s check holds', async () => {
    const events = projected(chainEvents(P, payloads));
    let handle: ItemStoreHandle = await projectorSqlite.init(root.target);
    let whole: Record<string, string>;
    try {
      await projectStretch(projectorSqlite, handle, P, events);
      const db = handle.db;
      const count = (table: 'node_fts' | 'item_fts', match: string) =>
        (
          db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(match) as {
            n: number;
          }
        ).n;
      // What the index answers: the new texts' words, never the replaced ones'.
      expect(count('node_fts', '"東京 京都"')).toBe(1);
      expect(count('node_fts', '"キャ ャッ ッシ シュ"')).toBe(1); // the halfwidth ｷｬｯｼｭ
      expect(count('node_fts', '"テー ーマ"')).toBe(0);
      expect(count('node_fts', '"缓存"')).toBe(0);
      expect(count('node_fts', 'api')).toBe(1);
      expect(count('item_fts', 'text : "サー ーバ"')).toBe(1);
      expect(count('item_fts', 'text : "캐시" AND scope : l0')).toBe(1);
      whole = await projectorSqlite.digest!(handle); // commits the batch: the check runs outside it
      expect(nodeFtsIntegrity(db)).toBe('ok');
      await sealStore(handle, projectorSqlite.version, { canonical: true });
      expect(digestStore(handle.db)).toEqual(whole);
      expect(nodeFtsIntegrity(handle.db)).toBe('ok');
    } finally {
      await projectorSqlite.close(handle);
    }
    root.cleanup();
    root = tempRoot();
    handle = await projectorSqlite.init(root.target);
    try {
      for (const event of events) await projectStretch(projectorSqlite, handle, P, [event]);
      expect(await projectorSqlite.digest!(handle)).toEqual(whole);
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('a node text edited by hand behind the index fails the check', async () => {
    const handle = await projectorSqlite.init(root.target);
    try {
      await projectStretch(projectorSqlite, handle, P, projected(chainEvents(P, payloads)));
      await projectorSqlite.seal(handle);
      expect(nodeFtsIntegrity(handle.db)).toBe('ok');
      // Another connection: no triggers, so node_fts keeps the old text's bigrams.
      const other = new Database(handle.files.live);
      try {
        other
          .prepare(
            `UPDATE node SET text = replace(text, '東京都', '大阪府') WHERE text LIKE '%東京都%'`,
          )
          .run();
      } finally {
        other.close();
      }
      expect(nodeFtsIntegrity(handle.db)).toBe('fts5: checksum mismatch for table "node_fts"');
    } finally {
      await projectorSqlite.close(handle);
    }
  });
});
