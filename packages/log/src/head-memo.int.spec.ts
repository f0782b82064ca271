import {
  appendFileSync,
  closeSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempLogDir, tombstone, tombstones } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';

// EventLog.head remembers the last line it read (or its own append wrote) and trusts it only
// while the newest segment still ends in those bytes (head-memo.ts). Each case changes the log
// behind a remembered head in a way a cache keyed on less than the bytes would miss.

const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

const segment = (name = '000001.jsonl') => join(temp.dir, 'demo', name);

/** The segment's last complete line, without its `\n`. */
function lastLine(file: string): string {
  return readFileSync(file, 'utf8').split('\n').at(-2)!;
}

/** Overwrites the last line's reason `from` with `to` (same length) in place: same inode, same size. */
function editLastLineInPlace(file: string, from: string, to: string): string {
  expect(to.length).toBe(from.length);
  const text = readFileSync(file, 'utf8');
  const at = text.lastIndexOf(`"reason":"${from}"`);
  expect(at).toBeGreaterThan(text.lastIndexOf('\n', text.length - 2));
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, `"reason":"${to}"`, Buffer.byteLength(text.slice(0, at)));
  } finally {
    closeSync(fd);
  }
  return lastLine(file);
}

describe('the remembered chain head', () => {
  it('follows an append made through another instance (another process)', async () => {
    const one = new EventLog({ dir: temp.dir });
    const two = new EventLog({ dir: temp.dir });
    await one.append('demo', tombstones(2), writer);
    expect(await one.head('demo')).toMatchObject({ seq: 2 });
    const moved = await two.append('demo', tombstones(3, 'u'), writer);
    expect(await one.head('demo')).toEqual({
      seq: 5,
      hash: sha256Hex(lastLine(segment())),
    });
    expect(moved.last_seq).toBe(5);
  });

  it('notices the last line edited in place to the same size, after a read', async () => {
    await new EventLog({ dir: temp.dir }).append(
      'demo',
      [tombstone('before'), tombstone('last-1')],
      writer,
    );
    const reader = new EventLog({ dir: temp.dir });
    const read = await reader.head('demo');
    expect(read).toEqual({ seq: 2, hash: sha256Hex(lastLine(segment())) });
    const size = statSync(segment()).size;
    const edited = editLastLineInPlace(segment(), 'last-1', 'last-2');
    expect(statSync(segment()).size).toBe(size);
    const head = await reader.head('demo');
    expect(head).toEqual({ seq: 2, hash: sha256Hex(edited) });
    expect(head.hash).not.toBe(read.hash);
  });

  it('notices the last line edited in place after its own append remembered it', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', [tombstone('first')], writer);
    await log.append('demo', [tombstone('a'), tombstone('own-1')], writer);
    const written = sha256Hex(lastLine(segment()));
    const edited = editLastLineInPlace(segment(), 'own-1', 'own-2');
    const head = await log.head('demo');
    expect(head).toEqual({ seq: 3, hash: sha256Hex(edited) });
    expect(head.hash).not.toBe(written);
  });

  it('notices a one-line segment edited in place (the line starts the file)', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', [tombstone('only-1')], writer);
    expect(await log.head('demo')).toMatchObject({ seq: 1 });
    const edited = editLastLineInPlace(segment(), 'only-1', 'only-2');
    expect(await log.head('demo')).toEqual({ seq: 1, hash: sha256Hex(edited) });
  });

  it('steps back when the last line is cut off, and ignores a torn fragment', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(3), writer);
    const lines = readFileSync(segment(), 'utf8').split('\n');
    expect(await log.head('demo')).toMatchObject({ seq: 3 });
    truncateSync(segment(), Buffer.byteLength(lines.slice(0, 2).join('\n') + '\n'));
    expect(await log.head('demo')).toEqual({ seq: 2, hash: sha256Hex(lines[1]!) });
    appendFileSync(segment(), '{"seq":3,"ts":"2026');
    expect(await log.head('demo')).toEqual({ seq: 2, hash: sha256Hex(lines[1]!) });
  });

  it('moves to a segment another instance started', async () => {
    const one = new EventLog({ dir: temp.dir, segmentBytes: 400 });
    const two = new EventLog({ dir: temp.dir, segmentBytes: 400 });
    await one.append('demo', tombstones(1), writer);
    expect(await one.head('demo')).toMatchObject({ seq: 1 });
    await two.append('demo', tombstones(2, 'v'), writer);
    await two.append('demo', tombstones(2, 'w'), writer);
    const newest = readdirSync(join(temp.dir, 'demo')).sort().at(-1)!;
    expect(newest).not.toBe('000001.jsonl');
    expect(await one.head('demo')).toEqual({ seq: 5, hash: sha256Hex(lastLine(segment(newest))) });
  });

  it('reads a line longer than it remembers, and follows a change of it', async () => {
    const log = new EventLog({ dir: temp.dir });
    const long = 'x'.repeat(80 * 1024);
    await log.append('demo', [tombstone('a'), tombstone(`${long}1`)], writer);
    expect(await log.head('demo')).toEqual({ seq: 2, hash: sha256Hex(lastLine(segment())) });
    const edited = editLastLineInPlace(segment(), `${long}1`, `${long}2`);
    expect(await log.head('demo')).toEqual({ seq: 2, hash: sha256Hex(edited) });
  });
});
