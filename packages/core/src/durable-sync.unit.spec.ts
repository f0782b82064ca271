import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsyncDirectory, fsyncPath } from './durable-sync.js';

const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
afterEach(() => Object.defineProperty(process, 'platform', platform));

describe('durable sync', () => {
  it('fsyncs a file and a directory, and fails naming the missing path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-durable-'));
    try {
      writeFileSync(join(dir, 'f'), 'x');
      expect(() => fsyncPath(join(dir, 'f'))).not.toThrow();
      expect(() => fsyncDirectory(dir)).not.toThrow();
      expect(() => fsyncPath(join(dir, 'gone'))).toThrow(/ENOENT.*gone/);
      expect(() => fsyncDirectory(join(dir, 'gone'))).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens a file read-write on Windows, whose flush needs write access', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-durable-'));
    try {
      // The open mode shows on a path only read access can open (a directory: EISDIR for
      // read-write, whoever the user is).
      expect(() => fsyncPath(dir)).not.toThrow();
      Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
      expect(() => fsyncPath(dir)).toThrow(/EISDIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never opens a directory on Windows, which cannot fsync one', () => {
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    expect(() => fsyncDirectory(join(tmpdir(), 'mem-no-such-directory'))).not.toThrow();
  });
});
