import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRecordedHead, writeRecordedHead, type RecordedHead } from './recorded-heads.js';

let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'mem-heads-'));
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

const long: RecordedHead = {
  seq: 123456,
  head: 'a'.repeat(64),
  by: 'the pgvector, sqlite, vault projections',
};
const short: RecordedHead = { seq: 7, head: 'b'.repeat(64), by: 'the sqlite projection' };
const file = () => join(stateDir, 'chain-heads', 'demo.head');

describe('the recorded chain head', () => {
  it('reads back what was written, also after a shorter record is written over a longer one', () => {
    expect(readRecordedHead(stateDir, 'demo')).toBeNull();
    writeRecordedHead(stateDir, 'demo', long);
    expect(readRecordedHead(stateDir, 'demo')).toEqual(long);
    writeRecordedHead(stateDir, 'demo', short);
    expect(readRecordedHead(stateDir, 'demo')).toEqual(short);
    // Rewritten in place: the older, longer record's bytes are spaces now, not left behind.
    expect(readFileSync(file(), 'utf8')).not.toContain('pgvector');
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('refuses a record whose check is wrong (an edit, or a write it never saw the end of) after reading it again', () => {
    writeRecordedHead(stateDir, 'demo', long);
    writeFileSync(file(), readFileSync(file(), 'utf8').replace('123456', '123457'));
    expect(() => readRecordedHead(stateDir, 'demo')).toThrow(/CONFIG_INVALID|check/);
    writeFileSync(file(), readFileSync(file(), 'utf8').slice(0, 40));
    expect(() => readRecordedHead(stateDir, 'demo')).toThrow(file());
  });

  it('reads a record that was half written when it looked first, once the writer is done', async () => {
    writeRecordedHead(stateDir, 'demo', long);
    const whole = readFileSync(file(), 'utf8');
    writeFileSync(file(), whole.slice(0, 50));
    // Another thread finishes the write while the reader waits between its reads.
    const worker = new Worker(
      `const { writeFileSync } = require('node:fs');
       const { workerData } = require('node:worker_threads');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
       writeFileSync(workerData.file, workerData.whole);`,
      { eval: true, workerData: { file: file(), whole } },
    );
    const online = new Promise((resolve) => worker.once('online', resolve));
    await online;
    expect(readRecordedHead(stateDir, 'demo')).toEqual(long);
    await new Promise((resolve) => worker.once('exit', resolve));
  });

  it('reads the .json of a root written before stop 35, and drops it when the .head is first written', () => {
    mkdirSync(join(stateDir, 'chain-heads'));
    const legacy = join(stateDir, 'chain-heads', 'demo.json');
    writeFileSync(legacy, `${JSON.stringify(short)}\n`);
    expect(readRecordedHead(stateDir, 'demo')).toEqual(short);
    writeRecordedHead(stateDir, 'demo', long);
    expect(existsSync(legacy)).toBe(false);
    expect(readRecordedHead(stateDir, 'demo')).toEqual(long);
    writeFileSync(legacy, 'not json');
    // The .head is read first; the old file is not looked at while it is there.
    expect(readRecordedHead(stateDir, 'demo')).toEqual(long);
    rmSync(file());
    expect(() => readRecordedHead(stateDir, 'demo')).toThrow(legacy);
  });
});
