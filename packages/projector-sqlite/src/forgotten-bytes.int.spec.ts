import { readFileSync, readdirSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { contentSha256 } from '@mem/core';
import { projectStretch } from '@mem/engine';
import { describe, expect, it } from 'vitest';
import {
  chainEvents,
  fixturePayloads,
  ftsMatchesNodes,
  projected,
  tempRoot,
} from '../test/support.js';
import { projectorSqlite } from './projector.js';

const A = 'alpha';
/** A line of the fixture's second L1 memory, and nowhere else in the fixture. */
const LINE =
  'CI flake: pg container raced its volume mount; fixed with a pg_isready readiness probe.';

/*
 * A catch-up of a built store writes in place (seal.ts), so a forget rewrites rows inside the
 * live file rather than into a fresh copy: the old text must not survive in a freed cell, a
 * freed page or an FTS5 segment. `mem eval forget` searches the file's bytes the same way.
 */
const forgetLog = () =>
  chainEvents(A, [
    ...fixturePayloads(),
    {
      type: 'forgotten',
      target: contentSha256(LINE),
      target_kind: 'line',
      before_sha256: contentSha256(LINE),
      refuses: [{ sha256: contentSha256(LINE), terms: [] }],
      reason: 'wrong',
    },
  ]);

describe('items.sqlite after a forget caught up in place', () => {
  it('holds no byte of the forgotten line, and its index still matches node', async () => {
    const log = chainEvents(A, [
      ...fixturePayloads(),
      {
        type: 'forgotten',
        target: contentSha256(LINE),
        target_kind: 'line',
        before_sha256: contentSha256(LINE),
        refuses: [{ sha256: contentSha256(LINE), terms: [] }],
        reason: 'wrong',
      },
    ]);
    const root = tempRoot();
    try {
      const live = join(root.target.stateDir, 'items.sqlite');
      let handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(0, -1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      expect(readFileSync(live).includes(Buffer.from(LINE))).toBe(true);
      const inode = statSync(live).ino;

      handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(-1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);

      // Written in place: no canonical copy renamed over the file.
      expect(statSync(live).ino).toBe(inode);
      expect(readdirSync(root.target.stateDir)).toEqual(['items.sqlite']);
      const bytes = readFileSync(live);
      for (const needle of [LINE, 'raced its volume mount', 'fixed with a pg_isready'])
        expect(bytes.includes(Buffer.from(needle)), needle).toBe(false);
      expect(ftsMatchesNodes(root.target.stateDir)).toBe(true);
    } finally {
      root.cleanup();
    }
  });

  it('is written through a WAL, and no file beside it keeps the forgotten line while a reader holds it open', async () => {
    const log = forgetLog();
    const root = tempRoot();
    const live = join(root.target.stateDir, 'items.sqlite');
    let reader: Database.Database | undefined;
    try {
      let handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(0, -1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      // A server's read connection: the writer's close is then not the last, so nothing
      // checkpoints or removes the -wal file but the seal's own rule.
      reader = new Database(live, { readonly: true });
      expect(reader.prepare('SELECT count(*) AS n FROM node').get()).toEqual({
        n: expect.any(Number),
      });
      handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(-1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);

      // Header bytes 18 and 19: 2 is WAL (1 the rollback journal).
      expect([...readFileSync(live).subarray(18, 20)]).toEqual([2, 2]);
      const files = readdirSync(root.target.stateDir).sort();
      expect(files).toContain('items.sqlite-wal');
      for (const file of files) {
        const bytes = readFileSync(join(root.target.stateDir, file));
        for (const needle of [LINE, 'raced its volume mount', 'fixed with a pg_isready'])
          expect(bytes.includes(Buffer.from(needle)), `${file}: ${needle}`).toBe(false);
      }
      // The reader sees the forget (the WAL's pages were checkpointed, not lost).
      expect(
        (reader.prepare('SELECT text FROM node').all() as { text: string }[]).some((r) =>
          r.text.includes(LINE),
        ),
      ).toBe(false);
    } finally {
      reader?.close();
      root.cleanup();
    }
  });
});
