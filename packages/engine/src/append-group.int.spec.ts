import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256, hasErrorCode, uniformLines } from '@mem/core';
import { fsyncFile, type AppendResult } from '@mem/log';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from './engine.js';

/*
 * engine.append and group commit: concurrent callers of one process appending to one project
 * share the log's next write + fsync (the checks still run per batch, in call order), and each
 * caller gets its seqs only after its own bytes are durable. The real fsync runs; the hook
 * counts and holds the first one open, so the later callers arrive while it is in flight.
 */
const writer = { kind: 'cli' } as const;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** An engine whose first fsync is held open until `release` (then fails with EIO when `failFirst`), with a trace of fsyncs and acks. */
function heldEngine({ failFirst = false } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'mem-append-group-'));
  roots.push(root);
  const trace: string[] = [];
  let calls = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const inFlight = new Promise<void>((resolve) => (started = resolve));
  const engine = new Engine({
    root,
    projectors: [],
    fsync: async (fd) => {
      calls += 1;
      const n = calls;
      trace.push(`fsync ${n} start`);
      await fsyncFile(fd);
      if (n === 1) {
        started();
        await held;
        if (failFirst) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      }
      trace.push(`fsync ${n} done`);
    },
  });
  const append = (name: string, payloads: unknown[]) =>
    engine.append('demo', payloads, writer, { catchUp: 'later' }).then((result) => {
      trace.push(`ack ${name}`);
      return result;
    });
  return { engine, trace, append, inFlight, release, fsyncs: () => calls };
}

const tombstones = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, n) => ({
    type: 'tombstone',
    target: 'a'.repeat(64),
    reason: `${prefix}${n}`,
  }));

function evidence(text: string) {
  return {
    type: 'evidence',
    run_id: 'run-group',
    level: 'L0',
    t: 1,
    source: 'claude:group',
    text,
    sha256: contentSha256(text),
  };
}

function memory(text: string, parents: string[]) {
  return {
    type: 'memory',
    run_id: 'run-group',
    level: 'L1',
    t: 1,
    text,
    tokens: 5,
    parents,
    sha256: contentSha256(text),
    lines: uniformLines(text, parents),
  };
}

async function reasons(engine: Engine): Promise<string[]> {
  const out: string[] = [];
  for await (const { event } of engine.read('demo'))
    if (event.type === 'tombstone') out.push(event.reason);
  return out;
}

/** Lets the later callers reach the log while the first fsync is held open. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('engine.append group commit', () => {
  it('concurrent appends to one project share one fsync, in call order, each acknowledged after it', async () => {
    const { engine, trace, append, inFlight, release, fsyncs } = heldEngine();
    const first = append('a', tombstones(2, 'a'));
    await inFlight;
    const later = ['b', 'c', 'd'].map((name) => append(name, tombstones(3, name)));
    await settle();
    expect(trace).toEqual(['fsync 1 start']);
    release();
    const results = await Promise.all([first, ...later]);

    // Four appends, two fsyncs: b, c and d joined the write after a's.
    expect(fsyncs()).toBe(2);
    const at = (entry: string) => trace.indexOf(entry);
    expect(at('ack a')).toBeGreaterThan(at('fsync 1 done'));
    for (const name of ['b', 'c', 'd'])
      expect(at(`ack ${name}`)).toBeGreaterThan(at('fsync 2 done'));
    expect(results.map((r: AppendResult) => [r.first_seq, r.last_seq])).toEqual([
      [1, 2],
      [3, 5],
      [6, 8],
      [9, 11],
    ]);
    expect(await reasons(engine)).toEqual([
      'a0',
      'a1',
      'b0',
      'b1',
      'b2',
      'c0',
      'c1',
      'c2',
      'd0',
      'd1',
      'd2',
    ]);
    expect(await engine.verifyLog('demo')).toMatchObject({ ok: true, events: 11 });
  });

  it('a malformed or refused batch fails only its caller, writes none of its events, and the rest still share one fsync', async () => {
    const { engine, append, inFlight, release, fsyncs } = heldEngine();
    const first = append('a', tombstones(1, 'a'));
    await inFlight;
    const outcomes = Promise.allSettled([
      append('b', tombstones(2, 'b')),
      // Malformed: a tombstone without its reason.
      append('c', [...tombstones(1, 'c'), { type: 'tombstone', target: 'a'.repeat(64) }]),
      // Refused by the provenance check: its parent is nowhere in the log or the batch.
      append('d', [
        ...tombstones(1, 'd'),
        memory('- the cache lives in .mem/cache', ['f'.repeat(64)]),
      ]),
      append('e', tombstones(2, 'e')),
    ]);
    await settle();
    release();
    await first;
    const [b, c, d, e] = await outcomes;
    expect(b).toMatchObject({ status: 'fulfilled', value: { first_seq: 2, last_seq: 3 } });
    expect(c.status === 'rejected' && hasErrorCode(c.reason, 'INVALID_EVENT')).toBe(true);
    expect(d.status === 'rejected' && hasErrorCode(d.reason, 'PROVENANCE_FAILED')).toBe(true);
    expect(e).toMatchObject({ status: 'fulfilled', value: { first_seq: 4, last_seq: 5 } });
    expect(fsyncs()).toBe(2);
    expect(await reasons(engine)).toEqual(['a0', 'b0', 'b1', 'e0', 'e1']);
    expect(await engine.verifyLog('demo')).toMatchObject({ ok: true, events: 5 });
  });

  it('a memory queued behind in-flight evidence is checked against it and shares its fsync', async () => {
    const { engine, append, inFlight, release, fsyncs } = heldEngine();
    const seen = evidence('the cache lives in .mem/cache');
    // a's fsync is held, so the evidence waits for the lock, unwritten, when b is checked.
    const first = append('a', tombstones(1, 'a'));
    await inFlight;
    const cites = append('e', [seen]);
    const cited = append('b', [memory('- the cache lives in .mem/cache', [seen.sha256])]);
    await settle();
    release();
    await expect(first).resolves.toMatchObject({ first_seq: 1 });
    await expect(cites).resolves.toMatchObject({ first_seq: 2 });
    await expect(cited).resolves.toMatchObject({ first_seq: 3, last_seq: 3 });
    expect(fsyncs()).toBe(2);
    expect(await engine.verifyLog('demo')).toMatchObject({ ok: true, events: 3 });
  });

  it('a memory checked against in-flight evidence whose write then fails fails too, unwritten', async () => {
    const { engine, append, inFlight, release, fsyncs } = heldEngine({ failFirst: true });
    const seen = evidence('the cache lives in .mem/cache');
    const first = append('a', [seen]);
    await inFlight;
    const outcomes = Promise.allSettled([
      append('b', [memory('- the cache lives in .mem/cache', [seen.sha256])]),
      append('c', tombstones(1, 'c')),
    ]);
    await settle();
    release();
    await expect(first).rejects.toMatchObject({ code: 'IO_FAILED' });
    const [b, c] = await outcomes;
    // b counted on a, which never made it to the log; c counted on nothing and is written.
    expect(b.status === 'rejected' && hasErrorCode(b.reason, 'IO_FAILED')).toBe(true);
    expect(c).toMatchObject({ status: 'fulfilled', value: { first_seq: 1, last_seq: 1 } });
    expect(fsyncs()).toBe(3);
    expect(await reasons(engine)).toEqual(['c0']);
    expect(await engine.verifyLog('demo')).toMatchObject({ ok: true, events: 1 });
  });

  it('memory text written while its forget is in flight waits for it and is refused FORGOTTEN', async () => {
    const { engine, append, inFlight, release } = heldEngine();
    const line = 'the cache lives in .mem/cache';
    const sha = contentSha256(line);
    const forget = {
      type: 'forgotten',
      target: sha,
      target_kind: 'line',
      before_sha256: sha,
      refuses: [{ sha256: sha, terms: [] }],
      reason: 'wrong',
    };
    // a's fsync is held, so the forget waits for the lock, unwritten, when b is checked.
    const first = append('a', tombstones(1, 'a'));
    await inFlight;
    const forgetting = append('f', [forget]);
    const back = append('b', [
      {
        type: 'superseded',
        target: 'c'.repeat(64),
        target_kind: 'line',
        before_sha256: 'c'.repeat(64),
        after_sha256: sha,
        text: line,
        reason: 'reworded',
      },
    ]);
    await settle();
    release();
    await expect(first).resolves.toMatchObject({ first_seq: 1 });
    await expect(forgetting).resolves.toMatchObject({ first_seq: 2 });
    const refused = await back.catch((error: unknown) => error);
    expect(hasErrorCode(refused, 'FORGOTTEN')).toBe(true);
    expect((await engine.head('demo')).seq).toBe(2);
  });
});
