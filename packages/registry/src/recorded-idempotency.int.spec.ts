import { readFileSync, readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_PROJECT } from '@mem/core';
import { projectorSqlite } from '@mem/projector-sqlite';
import { Engine, itemWriteLock } from '@mem/engine';
import { asRoot, seedIdentity, tempDataRoot } from '../../../test/api/support.js';
import { testConfig } from '../../../test/support/test-config.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { openRegistry } from './open.js';
import type { Registry } from './registry.js';

/*
 * Issue 13 §2 below the surfaces: a recorded key answers a registry that never saw it (a new
 * process on the root) until 24 h after its record's ts, by the registry's clock; an operation
 * whose outcome holds a secret (token_mint) keeps its keys in memory and writes no record.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// The log stamps events by the system clock; the registry's clock starts there and is moved.
let clock = Date.now();
const now = () => new Date(clock);

async function registryOn(root: string): Promise<Registry> {
  const registry = await openRegistry({
    engine: new Engine({ root, projectors: [projectorSqlite] }),
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: false,
    now,
  });
  cleanups.push(() => registry.close());
  return registry;
}

function logText(root: string, project: string): string {
  const dir = join(root, 'log', project);
  return readdirSync(dir)
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');
}

const remember = { project: 'alpha', text: 'The staging database is reset nightly', type: 'fact' };

describe('recorded idempotency keys', () => {
  it('answer a fresh registry on the same root until 24 h after the record, then the key runs again', async () => {
    clock = Date.now();
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const first = await registryOn(root);
    await seedIdentity(first, { alice: ['alpha'] });
    const caller = first.local('alice');
    const written = await first.invoke('remember', caller, remember, { idempotencyKey: 'k' });
    const logged = logText(root, 'alpha');
    expect(logged).toContain('"type":"idempotency_recorded"');
    // Neither the key nor the request is in the log, only their hashes.
    expect(logged.match(/"key_sha256"/g)).toHaveLength(1);
    expect(logged).not.toContain('"k"');

    clock += IDEMPOTENCY_TTL_MS - 60_000;
    const second = await registryOn(root);
    expect(
      await second.invoke('remember', second.local('alice'), remember, { idempotencyKey: 'k' }),
    ).toEqual(written);
    expect(logText(root, 'alpha')).toBe(logged);
    await expect(
      second.invoke(
        'remember',
        second.local('alice'),
        { ...remember, type: 'task' },
        {
          idempotencyKey: 'k',
        },
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'Idempotency-Key' } });
    // Another credential's key of the same name is another key.
    const other = await second.invoke(
      'remember',
      second.local('bob'),
      { ...remember, text: 'Bob was here' },
      {
        idempotencyKey: 'k',
      },
    );
    expect(other).not.toEqual(written);

    clock += 120_000;
    const third = await registryOn(root);
    const again = (await third.invoke('remember', third.local('alice'), remember, {
      idempotencyKey: 'k',
    })) as { ids: string[] };
    expect(again.ids).not.toEqual((written as { ids: string[] }).ids);
  }, 120_000);

  it("two registries on one root racing one new key write once, the loser answered from the winner's batch", async () => {
    clock = Date.now();
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const first = await registryOn(root);
    await seedIdentity(first, { alice: ['alpha'] });
    // A second process on the root: its own in-memory key store, which never saw the key.
    const second = await registryOn(root);
    // The race, forced: an item write of a third process holds the project's item-write lock
    // while both ask with the same new key, and lets go a second later.
    const third = new Engine({ root, projectors: [] });
    const rounds = [
      { op: 'remember', input: { ...remember, text: 'The staging database is reset at 2 am' } },
      {
        op: 'add_items',
        input: { project: 'alpha', items: [{ type: 'fact', summary: 'Staging runs Postgres 16' }] },
      },
    ];
    for (const [round, { op, input }] of rounds.entries()) {
      const options = { idempotencyKey: `race-${round}` };
      let answers: Promise<unknown[]> | undefined;
      await third.exclusive(itemWriteLock('alpha'), async () => {
        answers = Promise.all(
          [first, second].map((r) => r.invoke(op, r.local('alice'), input, options)),
        );
        await delay(1_000);
      });
      const [won, lost] = await answers!;
      expect(lost, `round ${round}`).toEqual(won);
    }
    const log = logText(root, 'alpha');
    expect(log.match(/"type":"item_added"/g)).toHaveLength(rounds.length);
    expect(log.match(/"type":"idempotency_recorded"/g)).toHaveLength(rounds.length);
  }, 180_000);

  it('a minted token stays in memory: its secret is never written and a new registry forgets the key', async () => {
    const { root, cleanup } = tempDataRoot([]);
    cleanups.push(cleanup);
    const first = await registryOn(root);
    await seedIdentity(first, { alice: [] });
    const root1 = first.local('root');
    const minted = (await first.invoke(
      'token_mint',
      root1,
      { principal: 'alice' },
      {
        idempotencyKey: 'mint',
      },
    )) as { secret: string };
    expect(
      await first.invoke('token_mint', root1, { principal: 'alice' }, { idempotencyKey: 'mint' }),
    ).toEqual(minted);
    const system = logText(root, SYSTEM_PROJECT);
    expect(system).not.toContain(minted.secret);
    expect(system).not.toContain('idempotency_recorded');
    const second = await registryOn(root);
    const again = (await asRoot(second, 'token_mint', { principal: 'alice' })) as {
      secret: string;
    };
    expect(again.secret).not.toBe(minted.secret);
  }, 120_000);
});
