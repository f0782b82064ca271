import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './dir-lock.js';

describe('lockDataDir', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-pg-lock-'));
    dirs.push(dir);
    return join(dir, 'pg');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('holds <dir>.lock with our pid until released', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('refuses a directory a live process holds, with CONFLICT naming it', () => {
    const dir = dataDir();
    writeFileSync(`${dir}.lock`, `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(expect.objectContaining({ code: 'CONFLICT', details: { dir, pid: process.ppid } }));
  });

  it('takes over the lock of a process that is gone, or a lock that is garbage', () => {
    for (const stale of ['2147483646\n', 'not a pid']) {
      const dir = dataDir();
      writeFileSync(`${dir}.lock`, stale);
      const release = lockDataDir(dir);
      expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(`${process.pid}\n`);
      release();
    }
  });
});
