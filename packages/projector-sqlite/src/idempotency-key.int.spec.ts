import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Payload } from '@mem/core';
import { projectStretch } from '@mem/engine';
import { chainEvents } from '../../../test/support/events.js';
import { openItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

/* Issue 13 §2: an Idempotency-Key's record, one row per key, read by one index lookup. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const key = 'a'.repeat(64);
const first = 'b'.repeat(64);
const second = 'c'.repeat(64);
const fact = (summary: string): Payload => ({ type: 'item_added', item_type: 'fact', summary });
const record = (fingerprint: string, events: number): Payload => ({
  type: 'idempotency_recorded',
  key_sha256: key,
  fingerprint,
  op: 'add_items',
  events,
});
const LOG: Payload[] = [
  fact('The cache lives in .mem/cache'),
  fact('Builds run on Node 20'),
  record(first, 2),
  fact('Unrelated fact'),
  // The key reused (after it expired): the newer record replaces the row.
  fact('Releases are cut on Tuesdays'),
  record(second, 1),
];
// chainEvents steps one second per event from 09:00:00: the records are seq 3 and seq 6.
const TS = ['2026-08-17T09:00:02.000Z', '2026-08-17T09:00:05.000Z'];

async function project(dir: string, batches: number[], upTo = LOG.length): Promise<void> {
  const target = { stateDir: dir, vaultDir: join(dir, 'vault'), options: {} };
  const events = chainEvents('demo', LOG.slice(0, upTo), { writer: { kind: 'cli' } });
  const handle = await projectorSqlite.init(target);
  let at = 0;
  for (const size of batches) {
    await projectStretch(projectorSqlite, handle, 'demo', events.slice(at, at + size));
    at += size;
  }
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-idempotency-key-'));
  dirs.push(dir);
  return dir;
}

function keyRow(dir: string) {
  const store = openItemStore(join(dir, 'items.sqlite'));
  try {
    return store.idempotencyKey(key);
  } finally {
    store.close();
  }
}

describe('idempotency_key in the item store', () => {
  it('names the batch the record closes, and the newer record of a reused key replaces it', async () => {
    const early = tempDir();
    await project(early, [3], 3);
    expect(keyRow(early)).toEqual({
      key_sha256: key,
      project: 'demo',
      fingerprint: first,
      op: 'add_items',
      first_seq: 1,
      last_seq: 2,
      ts: TS[0],
    });
    const late = tempDir();
    await project(late, [LOG.length]);
    expect(keyRow(late)).toMatchObject({
      fingerprint: second,
      first_seq: 5,
      last_seq: 5,
      ts: TS[1],
    });
  });

  it('is the same file byte for byte whether the log comes in one batch or one event at a time', async () => {
    const once = tempDir();
    const split = tempDir();
    await project(once, [LOG.length]);
    await project(
      split,
      LOG.map(() => 1),
    );
    expect(readFileSync(join(split, 'items.sqlite'))).toEqual(
      readFileSync(join(once, 'items.sqlite')),
    );
  });
});
