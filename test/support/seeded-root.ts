// Test support: a data root seeded once per test file, and a copy of it for each case.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * Registers, in the calling file, a `beforeAll` that runs `seed` on a new data root and an
 * `afterEach` that removes the copies made during the case; returns the function that makes a
 * case's copy (in a new directory, or into an empty one given). Why: many files began every case with the same seeding (a fixture appended, a
 * rebuild), each paying a PGlite open and a catch-up of every projection, when what the case
 * needs is a root in that state. The copy is the seed's bytes (the seeding's commands have closed
 * every store when they return; PGlite's memory_meta keeps the seed's directory as `state_dir`,
 * which nothing reads), so each case still starts from its own root and sees no other case's
 * writes. The seeding keeps its own assertions, run once instead of per case.
 */
export function seededRoots(
  prefix: string,
  seed: (root: string) => Promise<void>,
): (into?: string) => string {
  let seeded = '';
  const copies: string[] = [];
  beforeAll(async () => {
    seeded = mkdtempSync(join(tmpdir(), `${prefix}seed-`));
    await seed(seeded);
  });
  afterEach(() => {
    for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => rmSync(seeded, { recursive: true, force: true }));
  // `into`: an empty directory the caller made and removes (a file whose other cases start empty).
  return (into?: string) => {
    if (!seeded) throw new Error('seededRoots: a copy was asked for before the seed was made');
    const dir = into ?? mkdtempSync(join(tmpdir(), prefix));
    // Timestamps too: the copy is the seed as it stood, down to the files' mtimes.
    cpSync(seeded, dir, { recursive: true, preserveTimestamps: true });
    if (!into) copies.push(dir);
    return dir;
  };
}
