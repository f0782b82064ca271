import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountTmpfs, tmpfsSupport, type SmallTmpfs } from '../../../test/support/tmpfs.js';
import { tombstone, tombstones } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';
import { memErrorOf } from '../../../test/support/thrown.js';

/*
 * A batch is all or nothing, also when the disk fills up half-way through it. On a real 256 KiB
 * tmpfs the write of a batch gets a short write and then ENOSPC; the log must give those bytes
 * back before the error leaves it, and say NO_SPACE naming the file.
 */
const writer = { kind: 'cli' };
const support = tmpfsSupport();
const onTmpfs = support.ok ? describe : describe.skip;

let base: string;
let fs: SmallTmpfs;
beforeEach(() => {
  if (!support.ok) return;
  base = mkdtempSync(join(tmpdir(), 'mem-nospace-'));
  fs = mountTmpfs(join(base, 'log'), 256 * 1024);
});
afterEach(() => {
  if (!support.ok) return;
  fs.unmount();
  rmSync(base, { recursive: true, force: true });
});

/** A batch of ~48 KiB: well over what the filled file system has left. */
const bigBatch = () => tombstones(120, `${'x'.repeat(300)}-`);

onTmpfs(
  support.ok ? 'on a full file system' : `on a full file system (skipped: ${support.reason})`,
  () => {
    it('keeps the segment byte for byte as it was before a batch that ran out of space, says NO_SPACE naming it, and chains on after space is freed', async () => {
      const log = new EventLog({ dir: fs.dir });
      await log.append('demo', tombstones(5), writer);
      const segment = join(fs.dir, 'demo', '000001.jsonl');
      const before = readFileSync(segment);
      fs.fill(12 * 1024);
      const free = fs.free();
      expect(free).toBeGreaterThan(0);
      expect(Buffer.byteLength(JSON.stringify(bigBatch()))).toBeGreaterThan(free * 2);

      const error = await memErrorOf(log.append('demo', bigBatch(), writer));
      expect(error.code).toBe('NO_SPACE');
      expect(error.details).toMatchObject({ path: segment, project: 'demo' });
      expect(error.message).toContain(segment);
      expect(readFileSync(segment)).toEqual(before);
      expect(await log.verify('demo')).toMatchObject({ ok: true, events: 5 });

      fs.drain();
      const again = await log.append('demo', bigBatch(), writer);
      expect(again).toMatchObject({ first_seq: 6, last_seq: 125 });
      expect(await new EventLog({ dir: fs.dir }).verify('demo')).toMatchObject({
        ok: true,
        events: 125,
      });
    });

    it('also for a fresh instance that finds the state on disk, and a batch that fails again', async () => {
      await new EventLog({ dir: fs.dir }).append('demo', tombstones(3), writer);
      const segment = join(fs.dir, 'demo', '000001.jsonl');
      const before = readFileSync(segment);
      fs.fill(8 * 1024);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        expect(
          (await memErrorOf(new EventLog({ dir: fs.dir }).append('demo', bigBatch(), writer))).code,
        ).toBe('NO_SPACE');
        expect(readFileSync(segment)).toEqual(before);
      }
      // A small batch still fits: the log is usable, and it chains after the last good line.
      expect(
        await new EventLog({ dir: fs.dir }).append('demo', [tombstone('small')], writer),
      ).toMatchObject({ first_seq: 4, last_seq: 4 });
      expect(await new EventLog({ dir: fs.dir }).verify('demo')).toMatchObject({
        ok: true,
        events: 4,
      });
    });

    it('removes the segment a rotating batch created when the batch does not fit', async () => {
      const log = new EventLog({ dir: fs.dir, segmentBytes: 4096 });
      await log.append('demo', tombstones(5), writer);
      const projectDir = join(fs.dir, 'demo');
      const before = readFileSync(join(projectDir, '000001.jsonl'));
      fs.fill(12 * 1024);
      const error = await memErrorOf(log.append('demo', bigBatch(), writer));
      expect(error).toMatchObject({
        code: 'NO_SPACE',
        details: { path: join(projectDir, '000002.jsonl') },
      });
      expect(readdirSync(projectDir)).toEqual(['000001.jsonl']);
      expect(readFileSync(join(projectDir, '000001.jsonl'))).toEqual(before);
      fs.drain();
      expect(await log.append('demo', bigBatch(), writer)).toMatchObject({ first_seq: 6 });
      expect(existsSync(join(projectDir, '000002.jsonl'))).toBe(true);
      expect(await new EventLog({ dir: fs.dir, segmentBytes: 4096 }).verify('demo')).toMatchObject({
        ok: true,
        events: 125,
      });
    });

    it('puts back a torn tail it had cut off for a batch that then did not fit, so the next append still records its recovery', async () => {
      const log = new EventLog({ dir: fs.dir });
      await log.append('demo', tombstones(2), writer);
      const segment = join(fs.dir, 'demo', '000001.jsonl');
      appendFileSync(segment, '{"seq":3,"ts":"2026-');
      const before = readFileSync(segment);
      fs.fill(8 * 1024);
      expect((await memErrorOf(log.append('demo', bigBatch(), writer))).code).toBe('NO_SPACE');
      expect(readFileSync(segment)).toEqual(before);
      fs.drain();
      const result = await log.append('demo', [tombstone('after')], writer);
      expect(result.events.map((e) => e.type)).toEqual(['recovery', 'tombstone']);
      expect(await log.verify('demo')).toMatchObject({ ok: true, events: 4 });
    });
  },
);
