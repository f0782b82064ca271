import Database from 'better-sqlite3';
import { projectStretch } from '@mem/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chainEvents, fixturePayloads, projected, tempRoot } from '../test/support.js';
import type { StatementName } from './planned-write.js';
import { projectorSqlite } from './projector.js';
import { STATEMENT_SQL } from './statements.js';

const A = 'alpha';

afterEach(() => {
  vi.restoreAllMocks();
});

/*
 * Every catch-up opens the store; a small one runs a few of its planned statements. Preparing
 * all of them at open was most of the open's cost, so each is prepared on its first use.
 */
describe('opening the item store for a small catch-up', () => {
  it('prepares only the planned statements the batch runs', async () => {
    const log = chainEvents(A, [
      ...fixturePayloads(),
      { type: 'tombstone', target: 'a'.repeat(64), reason: 'a stale build note' },
    ]);
    const root = tempRoot();
    try {
      let handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(0, -1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      const prepare = vi.spyOn(Database.prototype, 'prepare');
      handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(-1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      const planned = new Set(Object.values(STATEMENT_SQL));
      const preparedPlanned = prepare.mock.calls.filter(([sql]) => planned.has(sql));
      // insertTombstone, applyTombstone, refreshLines: before, all 52 at every open.
      expect(preparedPlanned).toHaveLength(3);
    } finally {
      root.cleanup();
    }
  });

  it('every planned statement still prepares against the schema', async () => {
    const root = tempRoot();
    try {
      const handle = await projectorSqlite.init(root.target);
      try {
        for (const name of Object.keys(STATEMENT_SQL) as StatementName[])
          expect(() => handle.statements.planned(name), name).not.toThrow();
      } finally {
        await projectorSqlite.close(handle);
      }
    } finally {
      root.cleanup();
    }
  });
});
