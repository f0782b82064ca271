import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectNameSchema } from '@mem/core';
import { listSegmentsSync } from './segment-list.js';

/**
 * Sorted names of the project directories under `dir` that hold at least one segment. Listed
 * synchronously (every catch-up lists them): a directory lists in ~10 us, where fs/promises'
 * thread-pool round trip cost ~30 us CPU more each (stop 35).
 */
export async function listProjects(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const projects: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !projectNameSchema.safeParse(entry.name).success) continue;
    if (listSegmentsSync(join(dir, entry.name)).length > 0) projects.push(entry.name);
  }
  // Code-unit order, never locale order: the same list on every machine.
  return projects.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
