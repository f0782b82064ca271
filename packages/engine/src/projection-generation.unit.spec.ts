import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  beginProjectionChange,
  endProjectionChange,
  generationPath,
  settledGeneration,
} from './projection-generation.js';

let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'mem-generation-'));
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

describe('the projection generation', () => {
  it('is 0 before any writer, null while one changes the projections, and new once it is done', () => {
    expect(settledGeneration(stateDir)).toBe(0);
    const before = settledGeneration(stateDir);
    beginProjectionChange(stateDir);
    expect(settledGeneration(stateDir)).toBeNull();
    // Idempotent while odd: a second projection of the same catch-up marks nothing more.
    beginProjectionChange(stateDir);
    expect(settledGeneration(stateDir)).toBeNull();
    endProjectionChange(stateDir);
    const after = settledGeneration(stateDir);
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    beginProjectionChange(stateDir);
    endProjectionChange(stateDir);
    expect(settledGeneration(stateDir)).not.toBe(after);
    expect(readFileSync(generationPath(stateDir), 'utf8')).toBe('+\n+\n');
  });

  it('ends nothing when nothing began: a lock holder that changed nothing writes no file', () => {
    endProjectionChange(stateDir);
    expect(existsSync(generationPath(stateDir))).toBe(false);
    beginProjectionChange(stateDir);
    endProjectionChange(stateDir);
    endProjectionChange(stateDir);
    expect(settledGeneration(stateDir)).toBe(2);
  });

  it('a change a crash left open is closed by the next holder of the lock', () => {
    beginProjectionChange(stateDir);
    // The process dies here; the next holder marks nothing new before it ends.
    expect(settledGeneration(stateDir)).toBeNull();
    endProjectionChange(stateDir);
    expect(settledGeneration(stateDir)).toBe(2);
  });

  it('is an owner-only file, and the number file of a root written before stop 35 is not read', () => {
    writeFileSync(join(stateDir, 'projections.generation'), '7\n');
    expect(settledGeneration(stateDir)).toBe(0);
    beginProjectionChange(stateDir);
    expect(statSync(generationPath(stateDir)).mode & 0o777).toBe(0o600);
  });

  it('a state directory that cannot be written is an error naming the file, and nothing changes', () => {
    rmSync(stateDir, { recursive: true });
    expect(() => beginProjectionChange(stateDir)).toThrow(generationPath(stateDir));
    expect(settledGeneration(stateDir)).toBe(0);
  });
});
