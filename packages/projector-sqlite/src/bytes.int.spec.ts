import { statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { opsArbitrary, payloadsOf, scheduleArbitrary, type Schedule } from '../test/scenario.js';
import {
  chainEvents,
  fixturePayloads,
  ftsMatchesNodes,
  projected,
  tempRoot,
} from '../test/support.js';
import { projectStretch, type ProjectionTarget } from '@mem/engine';
import type { ItemStoreHandle } from './handle.js';
import { projectorSqlite } from './projector.js';
import { canonicalBytes } from './canonical-bytes.js';
import { sealStore } from './seal.js';
import type { ChainedEvent } from '../test/support.js';

const A = 'alpha';
const B = 'beta';

function bytesOf(target: ProjectionTarget): Buffer {
  return canonicalBytes(join(target.stateDir, 'items.sqlite'));
}

/** What a store holds: its rows (the digest `mem verify` compares) and its canonical bytes. */
interface Store {
  digest: Record<string, string>;
  bytes: Buffer;
}

/**
 * The digest of the store as it stands, then its bytes after a canonical seal (what a rebuild
 * writes). Equal bytes could still be equally wrong: the index must match the rows too, both
 * in the store as caught up and in the canonical copy.
 */
async function finish(handle: ItemStoreHandle, target: ProjectionTarget): Promise<Store> {
  expect(ftsMatchesNodes(target.stateDir)).toBe(true);
  const digest = await projectorSqlite.digest!(handle);
  await sealStore(handle, projectorSqlite.version, { canonical: true });
  await projectorSqlite.close(handle);
  const bytes = bytesOf(target);
  expect(ftsMatchesNodes(target.stateDir)).toBe(true);
  return { digest, bytes };
}

/** One-shot: every event of each project in one batch, in the given project order, one seal. */
async function oneShot(logs: readonly [string, ChainedEvent[]][]): Promise<Buffer> {
  const root = tempRoot();
  try {
    const handle = await projectorSqlite.init(root.target);
    for (const [project, events] of logs)
      await projectStretch(projectorSqlite, handle, project, projected(events));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    const bytes = bytesOf(root.target);
    expect(ftsMatchesNodes(root.target.stateDir)).toBe(true);
    return bytes;
  } finally {
    root.cleanup();
  }
}

/** A rebuild's digest and bytes: the one-shot store, its digest taken after reopening it. */
async function rebuilt(logs: readonly [string, ChainedEvent[]][]): Promise<Store> {
  const root = tempRoot();
  try {
    const handle = await projectorSqlite.init(root.target);
    for (const [project, events] of logs)
      await projectStretch(projectorSqlite, handle, project, projected(events));
    await projectorSqlite.seal(handle);
    const bytes = bytesOf(root.target);
    const digest = await projectorSqlite.digest!(handle);
    await projectorSqlite.close(handle);
    // The digest reads and checks; it writes nothing.
    expect(bytesOf(root.target).equals(bytes)).toBe(true);
    return { digest, bytes };
  } finally {
    root.cleanup();
  }
}

/** Incremental: batches cut and interleaved by `schedule`, with seals and reopens between them. */
async function incremental(
  a: ChainedEvent[],
  b: ChainedEvent[],
  schedule: Schedule,
): Promise<Store> {
  const root = tempRoot();
  try {
    const cursor: Record<string, number> = { [A]: 0, [B]: 0 };
    const logs: Record<string, ChainedEvent[]> = { [A]: a, [B]: b };
    let handle = await projectorSqlite.init(root.target);
    const apply = async (project: string, size: number) => {
      const events = logs[project]!.slice(cursor[project], cursor[project]! + size);
      if (events.length === 0) return;
      await projectStretch(projectorSqlite, handle, project, projected(events));
      cursor[project] = cursor[project]! + events.length;
    };
    for (const cut of schedule) {
      const project = cut.second ? B : A;
      await apply(project, cut.size);
      if (cut.seal) await projectorSqlite.seal(handle);
      if (cut.reopen) {
        // Closing without a seal is a crash between apply and seal: nothing applied is lost.
        await projectorSqlite.close(handle);
        handle = await projectorSqlite.init(root.target);
      }
    }
    await apply(B, b.length);
    await apply(A, a.length);
    await projectorSqlite.seal(handle);
    return await finish(handle, root.target);
  } finally {
    root.cleanup();
  }
}

describe('items.sqlite bytes', () => {
  it('hold the rows of one rebuild for any split and interleaving of two projects, and its bytes once sealed canonically', async () => {
    await fc.assert(
      fc.asyncProperty(
        opsArbitrary,
        opsArbitrary,
        scheduleArbitrary,
        async (opsA, opsB, schedule) => {
          const a = chainEvents(A, payloadsOf(opsA));
          const b = chainEvents(B, payloadsOf(opsB));
          const expected = await rebuilt([
            [A, a],
            [B, b],
          ]);
          const actual = await incremental(a, b, schedule);
          expect(actual.digest).toEqual(expected.digest);
          expect(actual.bytes.equals(expected.bytes)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('do not depend on which project a rebuild applies first', async () => {
    const a = chainEvents(A, fixturePayloads());
    const b = chainEvents(
      B,
      payloadsOf([
        { kind: 'reference', text: 1 },
        {
          kind: 'run',
          level: 'L1',
          query: 0,
          steps: [{ update: true, exit: false, text: 0, memory: 2 }],
        },
      ]),
    );
    const ab = await oneShot([
      [A, a],
      [B, b],
    ]);
    const ba = await oneShot([
      [B, b],
      [A, a],
    ]);
    expect(ab.equals(ba)).toBe(true);
  });

  it('are identical when the same log is rebuilt twice', async () => {
    const log = chainEvents(A, fixturePayloads());
    const first = await oneShot([[A, log]]);
    const second = await oneShot([[A, log]]);
    expect(first.equals(second)).toBe(true);
    // and an empty store is canonical too
    expect((await oneShot([])).equals(await oneShot([]))).toBe(true);
  });

  it('after reset(project) and a replay hold the rows of a store that was never reset, and its bytes once sealed canonically', async () => {
    const a = chainEvents(A, fixturePayloads());
    const b = chainEvents(
      B,
      payloadsOf([
        { kind: 'tombstone', text: 0 },
        {
          kind: 'run',
          level: 'L1',
          query: 1,
          steps: [{ update: true, exit: false, text: 0, memory: 1 }],
        },
      ]),
    );
    const expected = await rebuilt([
      [A, a],
      [B, b],
    ]);
    const root = tempRoot();
    try {
      let handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(a));
      await projectStretch(projectorSqlite, handle, B, projected(b));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      await projectorSqlite.reset(root.target, A);
      handle = await projectorSqlite.init(root.target);
      expect(await projectorSqlite.position(handle, A)).toBeNull();
      expect(await projectorSqlite.position(handle, B)).not.toBeNull();
      await projectStretch(projectorSqlite, handle, A, projected(a.slice(0, 7)));
      await projectorSqlite.seal(handle);
      await projectStretch(projectorSqlite, handle, A, projected(a.slice(7)));
      await projectorSqlite.seal(handle);
      const actual = await finish(handle, root.target);
      expect(actual.digest).toEqual(expected.digest);
      expect(actual.bytes.equals(expected.bytes)).toBe(true);
    } finally {
      root.cleanup();
    }
  });

  it('a catch-up of a built store is written in place: same file, no canonical copy', async () => {
    const log = chainEvents(A, fixturePayloads());
    const root = tempRoot();
    try {
      let handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(0, 7)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      const inode = statSync(join(root.target.stateDir, 'items.sqlite')).ino;
      handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, A, projected(log.slice(7)));
      await projectorSqlite.seal(handle);
      // A canonical copy is a new file renamed over the old one: O(size of the store).
      expect(statSync(join(root.target.stateDir, 'items.sqlite')).ino).toBe(inode);
      const actual = await finish(handle, root.target);
      const expected = await rebuilt([[A, log]]);
      expect(actual.digest).toEqual(expected.digest);
      expect(actual.bytes.equals(expected.bytes)).toBe(true);
    } finally {
      root.cleanup();
    }
  });
});
