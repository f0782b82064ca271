import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reviewId, type Payload } from '@mem/core';
import { projectStretch } from '@mem/engine';
import { chainEvents } from '../../../test/support/events.js';
import { openItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

/* Issue 12 §4: the review queue's findings in a real SQLite file, which `mem review list` reads. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const a = 'a'.repeat(64);
const b = 'b'.repeat(64);
const c = 'c'.repeat(64);
const opened = (kind: 'duplicate' | 'contradiction', subjects: string[]): Payload => ({
  type: 'review_opened',
  id: reviewId(kind, subjects),
  kind,
  subjects,
  explanation: `rule ${kind} fired`,
});
const LOG: Payload[] = [
  opened('duplicate', [a, b]),
  opened('contradiction', [b, c]),
  opened('duplicate', [a, c]),
  {
    type: 'review_decided',
    id: reviewId('contradiction', [b, c]),
    decision: 'dismiss',
    reason: 'x',
  },
  // A second decision on a decided finding changes nothing: the first wins.
  { type: 'review_decided', id: reviewId('contradiction', [b, c]), decision: 'keep', reason: 'y' },
  // An id opened again (a hand-made duplicate event) keeps its first row.
  opened('duplicate', [a, b]),
];

async function project(dir: string, batches: number[]): Promise<void> {
  const target = { stateDir: dir, vaultDir: join(dir, 'vault'), options: {} };
  const events = chainEvents('demo', LOG, { writer: { kind: 'cli', principal: 'me' } });
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
  const dir = mkdtempSync(join(tmpdir(), 'mem-review-finding-'));
  dirs.push(dir);
  return dir;
}

describe('review_finding in the item store', () => {
  it('holds every open finding, oldest first; a decided one is not open', async () => {
    const dir = tempDir();
    await project(dir, [LOG.length]);
    const store = openItemStore(join(dir, 'items.sqlite'));
    try {
      expect(store.openFindings('demo')).toEqual([
        {
          id: reviewId('duplicate', [a, b]),
          kind: 'duplicate',
          subjects: [a, b],
          explanation: 'rule duplicate fired',
          seq: 1,
          opened_by: 'me',
        },
        {
          id: reviewId('duplicate', [a, c]),
          kind: 'duplicate',
          subjects: [a, c],
          explanation: 'rule duplicate fired',
          seq: 3,
          opened_by: 'me',
        },
      ]);
      expect(store.openFindings('other')).toEqual([]);
    } finally {
      store.close();
    }
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
