import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { lockPgliteDir, pgliteHolderPath } from './locks.js';

/* The stop-32 walk: `mem verify` beside `mem serve` said only "open in another process". */
let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-pg-holder-'));
  dir = join(root, 'pg');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function refusal(): { message: string; details: unknown } {
  try {
    lockPgliteDir(dir)();
  } catch (error) {
    expect(hasErrorCode(error, 'CONFLICT')).toBe(true);
    return error as { message: string; details: unknown };
  }
  throw new Error('expected CONFLICT: the lock is held');
}

describe('a held embedded Postgres names its holder', () => {
  it('names the pid and command of the process holding it, and what to do', () => {
    const release = lockPgliteDir(dir);
    try {
      const error = refusal();
      expect(error.message).toContain(`(pid ${process.pid}: `);
      expect(error.message).toContain(`stop pid ${process.pid} and run this again`);
      expect(error.details).toMatchObject({ dir, holder: { pid: process.pid } });
    } finally {
      release();
    }
    expect(existsSync(pgliteHolderPath(dir))).toBe(false);
  });

  it('trusts no note: a garbled or dead holder note names nobody, and the lock still decides', () => {
    const release = lockPgliteDir(dir);
    try {
      for (const note of ['not json', '{"pid": -3}', `{"pid": 2147483646}`]) {
        writeFileSync(pgliteHolderPath(dir), note);
        const error = refusal();
        expect(error.message).toContain('its holder left no note naming it');
        expect(error.details).toMatchObject({ holder: null });
      }
    } finally {
      release();
    }
    // Released: the next open takes it, whatever the note said.
    lockPgliteDir(dir)();
  });
});
