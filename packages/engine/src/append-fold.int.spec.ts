import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256, hasErrorCode, uniformLines } from '@mem/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import { foldTombstones } from './tombstones/tombstone-set.js';
import { termHashes } from './tombstones/reword.js';

/*
 * Issue 15, target 1: an append of memory text checks provenance and tombstones against what
 * it folds from the project's log, kept between appends and advanced by the new events only.
 * Two engines on one root stand for two processes: each keeps its own fold.
 */
const writer = { kind: 'cli' } as const;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function newRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'mem-append-fold-'));
  roots.push(root);
  return root;
}

const engineAt = (root: string) => new Engine({ root, projectors: [] });
const append = (engine: Engine, payloads: unknown[]) =>
  engine.append('demo', payloads, writer, { catchUp: 'later' });

function evidence(text: string) {
  return {
    type: 'evidence',
    run_id: 'r1',
    level: 'L0',
    t: 1,
    source: 'claude:s',
    text,
    sha256: contentSha256(text),
  };
}

function memory(text: string, parent: string) {
  return {
    type: 'memory',
    run_id: 'r1',
    level: 'L1',
    t: 1,
    text,
    tokens: 8,
    parents: [parent],
    sha256: contentSha256(text),
    lines: uniformLines(text, [parent]),
  };
}

function forget(line: string, reason: string) {
  const sha = contentSha256(line);
  return {
    type: 'forgotten',
    target: sha,
    target_kind: 'line',
    before_sha256: sha,
    refuses: [{ sha256: sha, terms: termHashes(line) }],
    reason,
  };
}

/** Bytes every FileHandle.read returned while `run` ran (the log's walk reads with nothing else). */
async function bytesReadBy<T>(root: string, run: () => Promise<T>): Promise<number> {
  const probe = await open(join(root, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => unknown };
  await probe.close();
  const original = prototype.read;
  let bytes = 0;
  prototype.read = async function (this: unknown, ...args: unknown[]) {
    const result = (await original.apply(this, args)) as { bytesRead: number };
    bytes += result.bytesRead;
    return result;
  };
  try {
    await run();
    return bytes;
  } finally {
    prototype.read = original;
  }
}

/** The bytes of the project's log segments. */
function logBytes(root: string): number {
  const dir = join(root, 'log', 'demo');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the append to be refused');
    },
    (error: unknown) => error,
  );
}

describe('the append checks fold the log once and read only its new tail', () => {
  it('an append of memory text reads the new events, not the log (a log 20 times larger reads as little)', async () => {
    const cost = async (pairs: number) => {
      const root = newRoot();
      const engine = engineAt(root);
      for (let start = 0; start < pairs; start += 500) {
        const batch = [];
        for (let n = start; n < Math.min(pairs, start + 500); n += 1) {
          const text = `evidence ${n}: the deploy of build ${n} waited on the cache warm-up`;
          batch.push(
            evidence(text),
            memory(`- build ${n} waited on the cache`, contentSha256(text)),
          );
        }
        await append(engine, batch);
      }
      const last = `evidence ${pairs - 1}: the deploy of build ${pairs - 1} waited on the cache warm-up`;
      // The first memory append of this engine folds the log; the next reads what came since.
      await append(engine, [memory('- the fold is warm now', contentSha256(last))]);
      await append(engine, [evidence('a line another writer added')]);
      const bytes = await bytesReadBy(root, () =>
        append(engine, [memory('- one more memory', contentSha256(last))]),
      );
      return { bytes, log: logBytes(root) };
    };
    const small = await cost(100);
    const large = await cost(2000);
    // Before, each such append read the whole log twice (2 x 1.4 MB at 2,000 pairs). What is
    // left is the log's tail (the walk bisects a segment for a seq), a few reads of 64 kB.
    expect(large.bytes).toBeLessThan(2 * small.bytes);
    expect(large.bytes).toBeLessThan(large.log / 4);
  });

  it('sees what another process appended: its evidence as parents, its forget as a tombstone', async () => {
    const root = newRoot();
    const mine = engineAt(root);
    const theirs = engineAt(root);
    const first = 'the staging hosts run on the old kernel';
    await append(mine, [evidence(first)]);
    await append(mine, [memory('- staging runs the old kernel', contentSha256(first))]);
    const second = 'the canary hosts restart every night at two';
    await append(theirs, [evidence(second)]);
    await expect(
      append(mine, [memory('- canaries restart nightly', contentSha256(second))]),
    ).resolves.toMatchObject({ appended: 1 });
    await append(theirs, [forget('- canaries restart nightly', 'wrong schedule')]);
    const refused = await refusal(
      append(mine, [memory('- the canaries restart nightly, at two', contentSha256(second))]),
    );
    expect(hasErrorCode(refused, 'FORGOTTEN')).toBe(true);
    expect((refused as Error).message).toContain('reason: wrong schedule');
  });

  it('a log replaced under it (other events from the start) is folded again from the start', async () => {
    const root = newRoot();
    const mine = engineAt(root);
    const kept = 'the build cache lives under .mem/cache';
    await append(mine, [evidence(kept)]);
    await append(mine, [memory('- the cache lives in .mem', contentSha256(kept))]);
    // Another process's log, as a restore from elsewhere would leave it: three other events
    // (the one after the fold's head names another prev).
    rmSync(join(root, 'log', 'demo'), { recursive: true });
    const other = engineAt(root);
    const replacing = 'the queue drains every minute';
    await append(other, [
      evidence(replacing),
      evidence('and retries three times'),
      evidence('and logs every retry'),
    ]);
    const refused = await refusal(
      append(mine, [memory('- the cache is still there', contentSha256(kept))]),
    );
    expect(hasErrorCode(refused, 'PROVENANCE_FAILED')).toBe(true);
    await expect(
      append(mine, [memory('- the queue drains each minute', contentSha256(replacing))]),
    ).resolves.toMatchObject({ first_seq: 4 });
  });

  it('a log cut shorter under it is folded again from the start', async () => {
    const root = newRoot();
    const mine = engineAt(root);
    const first = 'the runner image pins node 20';
    const second = 'the runner image was rebuilt on monday';
    await append(mine, [evidence(first)]);
    await append(mine, [evidence(second)]);
    await append(mine, [memory('- runners pin node 20', contentSha256(first))]);
    // Only the first event stays (as a restore of an older copy would leave the file).
    const segment = join(root, 'log', 'demo', readdirSync(join(root, 'log', 'demo')).sort()[0]!);
    const lines = readFileSync(segment, 'utf8').split('\n');
    writeFileSync(segment, `${lines[0]}\n`);
    const refused = await refusal(
      append(mine, [memory('- rebuilt on monday', contentSha256(second))]),
    );
    expect(hasErrorCode(refused, 'PROVENANCE_FAILED')).toBe(true);
  });

  it('after a purge, refusals name the tombstone as the rewritten log does, not as it was', async () => {
    const root = newRoot();
    const mine = engineAt(root);
    const theirs = engineAt(root);
    const fact = 'the payroll export runs on host lima-7';
    await append(mine, [evidence(fact)]);
    await append(mine, [forget('- payroll exports from lima-7', 'leaked hostname lima-7 here')]);
    const before = await refusal(
      append(mine, [memory('- the payroll exports run from lima-7', contentSha256(fact))]),
    );
    expect((before as Error).message).toContain('lima-7 here');
    // The fold moves past the forget, so the purge rewrites a line behind its head: the chain
    // still continues from the head, only the `purged` event says history changed.
    const note = 'the export job is owned by the finance team';
    await append(mine, [evidence(note)]);
    await append(mine, [memory('- finance owns the export job', contentSha256(note))]);
    await theirs.purge('demo', { ref: 'lima-7', reason: 'a host name' }, writer);
    const after = await refusal(
      append(mine, [memory('- the payroll exports run from lima-7', contentSha256(fact))]),
    );
    expect(hasErrorCode(after, 'FORGOTTEN')).toBe(true);
    expect((after as Error).message).not.toContain('lima-7 here');
  });
});

/** A log of `pairs` evidence + memory pairs written by `engine`, then one memory append (which folds it). */
async function grownLog(engine: Engine, pairs: number, before: unknown[] = []): Promise<string> {
  for (let start = 0; start < pairs; start += 500) {
    const batch = [];
    for (let n = start; n < Math.min(pairs, start + 500); n += 1) {
      const text = `evidence ${n}: the deploy of build ${n} waited on the cache warm-up`;
      batch.push(evidence(text), memory(`- build ${n} waited on the cache`, contentSha256(text)));
    }
    await append(engine, batch);
  }
  if (before.length > 0) await append(engine, before);
  const first = 'evidence 0: the deploy of build 0 waited on the cache warm-up';
  await append(engine, [memory('- the fold is warm now', contentSha256(first))]);
  return first;
}

const foldFile = (root: string) => join(root, '.mem', 'append-folds', 'demo.fold');

describe('the append fold is saved, and a fresh process starts from it', () => {
  it("a fresh engine's first memory append reads the log's new tail, not the log, and checks against the saved nodes and tombstones", async () => {
    const root = newRoot();
    const first = await grownLog(engineAt(root), 2000, [
      forget('- the deploys ran on friday', 'a stale note'),
    ]);
    // A process that folds the log saves what it folded (2,000 pairs: more than 1,000 events).
    expect(statSync(foldFile(root)).size).toBeGreaterThan(0);
    await append(engineAt(root), [evidence('a line another writer added')]);
    const fresh = engineAt(root);
    const bytes = await bytesReadBy(root, () =>
      append(fresh, [memory('- build zero waited on the cache', contentSha256(first))]),
    );
    expect(bytes).toBeLessThan(logBytes(root) / 4);
    const unknown = await refusal(
      append(engineAt(root), [memory('- rests on nothing', 'f'.repeat(64))]),
    );
    expect(hasErrorCode(unknown, 'PROVENANCE_FAILED')).toBe(true);
    const forgotten = await refusal(
      append(engineAt(root), [memory('- the deploys ran on friday', contentSha256(first))]),
    );
    expect(hasErrorCode(forgotten, 'FORGOTTEN')).toBe(true);
    expect((forgotten as Error).message).toContain('reason: a stale note');
  });

  it('a saved fold whose log was replaced is discarded: refusals follow the new log', async () => {
    const root = newRoot();
    const first = await grownLog(engineAt(root), 600);
    expect(statSync(foldFile(root)).size).toBeGreaterThan(0);
    rmSync(join(root, 'log', 'demo'), { recursive: true });
    const replacing = 'the queue drains every minute';
    await append(engineAt(root), [evidence(replacing), evidence('and retries three times')]);
    const refused = await refusal(
      append(engineAt(root), [memory('- build zero waited', contentSha256(first))]),
    );
    expect(hasErrorCode(refused, 'PROVENANCE_FAILED')).toBe(true);
    expect(existsSync(foldFile(root))).toBe(false);
    await expect(
      append(engineAt(root), [memory('- the queue drains', contentSha256(replacing))]),
    ).resolves.toMatchObject({ first_seq: 3 });
  });

  it('a saved fold of a log since cut shorter is discarded', async () => {
    const root = newRoot();
    await grownLog(engineAt(root), 600);
    const dir = join(root, 'log', 'demo');
    const segment = join(dir, readdirSync(dir).sort()[0]!);
    const lines = readFileSync(segment, 'utf8').split('\n');
    // The first 100 pairs stay; the memory of pair 300 cites evidence that is gone now.
    writeFileSync(segment, `${lines.slice(0, 200).join('\n')}\n`);
    const gone = 'evidence 300: the deploy of build 300 waited on the cache warm-up';
    const refused = await refusal(
      append(engineAt(root), [memory('- build 300 waited', contentSha256(gone))]),
    );
    expect(hasErrorCode(refused, 'PROVENANCE_FAILED')).toBe(true);
    expect(existsSync(foldFile(root))).toBe(false);
  });

  it('a damaged saved fold is ignored, and a purge drops every saved fold', async () => {
    const root = newRoot();
    const first = await grownLog(engineAt(root), 600, [evidence('the builds run on host lima-7')]);
    const bytes = readFileSync(foldFile(root));
    bytes[bytes.length - 40]! ^= 0xff;
    writeFileSync(foldFile(root), bytes);
    // Ignored means folded from the log's start: the whole log is read, not its tail.
    const whole = logBytes(root);
    const read = await bytesReadBy(root, () =>
      expect(
        append(engineAt(root), [memory('- build zero again', contentSha256(first))]),
      ).resolves.toMatchObject({ appended: 1 }),
    );
    expect(read).toBeGreaterThanOrEqual(whole);
    await append(engineAt(root), [forget('- builds on lima-7 wait', 'host lima-7 here')]);
    await engineAt(root).purge('demo', { ref: 'lima-7', reason: 'a host name' }, writer);
    expect(existsSync(join(root, '.mem', 'append-folds'))).toBe(false);
  });
});

describe('a saved fold is a cache: trouble with it never fails an append', () => {
  it("an unreadable fold is folded past, and a dead writer's temporary file is removed", async () => {
    const root = newRoot();
    const first = await grownLog(engineAt(root), 600, [evidence('the builds run on host lima-7')]);
    rmSync(foldFile(root));
    mkdirSync(foldFile(root)); // EISDIR on read
    await expect(
      append(engineAt(root), [memory('- build zero again', contentSha256(first))]),
    ).resolves.toMatchObject({ appended: 1 });
    rmSync(foldFile(root), { recursive: true });
    // A writer that died between create and rename (pid 2^22 + 1 is above Linux's pid_max).
    const dead = `${foldFile(root)}.${2 ** 22 + 1}.0a1b2c3d`;
    writeFileSync(dead, 'a whole fold, once');
    await grownLog(engineAt(root), 600);
    expect(existsSync(foldFile(root))).toBe(true);
    expect(existsSync(dead)).toBe(false);
  });
});

describe('a writer asks the engine for the tombstones instead of folding the log', () => {
  it('tombstones() reads the new tail of a folded log and matches what a fold of the whole log refuses', async () => {
    const root = newRoot();
    const engine = engineAt(root);
    await grownLog(engine, 2000, [forget('- the deploys ran on friday', 'a stale note')]);
    await append(engine, [forget('- the cache lives on host seven', 'moved')]);
    const bytes = await bytesReadBy(root, () => engine.tombstones('demo'));
    expect(bytes).toBeLessThan(logBytes(root) / 4);
    const set = await engine.tombstones('demo');
    const whole = await foldTombstones(engine.read('demo'));
    for (const line of [
      '- the deploys ran on friday',
      '- the cache lives on host seven',
      '- the deploys ran on a friday',
      '- nothing was forgotten here',
    ])
      expect(set.match(line)).toEqual(whole.match(line));
    expect(set.size).toBe(2);
  });
});
