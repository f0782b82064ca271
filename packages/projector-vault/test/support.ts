import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  projectStretch,
  type ProjectedEvent,
  type ProjectionOptions,
  type ProjectionTarget,
} from '@mem/engine';
import { chainEvents, type ChainedEvent } from '../../../test/support/events.js';
import { projectorVault } from '../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The package's expected vault trees. */
export const FIXTURES = join(here, 'fixtures');

/** The sample extraction runs (shared example) as a valid chained log of `project`. */
export async function sampleEvents(project = 'poimen'): Promise<ChainedEvent[]> {
  const text = await readFile(join(here, '../../../test/fixtures/extraction-runs.jsonl'), 'utf8');
  const payloads = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return chainEvents(project, payloads);
}

const roots: string[] = [];

/** A fresh data root: `<root>/.mem` and `<root>/vault`. Removed by `removeTempTargets`. */
export async function tempTarget(
  options: ProjectionOptions = {},
): Promise<ProjectionTarget & { root: string }> {
  const root = await mkdtemp(join(tmpdir(), 'mem-vault-'));
  roots.push(root);
  return { root, stateDir: join(root, '.mem'), vaultDir: join(root, 'vault'), options };
}

/** Deletes every data root `tempTarget` made (for `afterAll`/`afterEach`). */
export async function removeTempTargets(): Promise<void> {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
}

/** Every file under `dir` (recursively, `.git` skipped) as '/'-separated relative path → text, sorted by path. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const files: Array<[string, string]> = [];
  async function walk(current: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') await walk(path);
      } else {
        files.push([relative(dir, path).split(sep).join('/'), await readFile(path, 'utf8')]);
      }
    }
  }
  await walk(dir);
  return new Map(files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Applies `batches` as separate catch-ups (init, position, project, seal, close each), as the engine would. */
export async function applyBatches(
  target: ProjectionTarget,
  project: string,
  batches: readonly (readonly ProjectedEvent[])[],
): Promise<void> {
  for (const batch of batches) {
    const handle = await projectorVault.init(target);
    await projectorVault.position(handle, project);
    await projectStretch(
      projectorVault,
      handle,
      project,
      batch.map(({ event, hash }) => ({ event, hash })),
    );
    await projectorVault.seal(handle);
    await projectorVault.close(handle);
  }
}

/** `events` cut at `cuts` (indexes, any order, duplicates allowed) into contiguous batches. */
export function splitAt<T>(events: readonly T[], cuts: readonly number[]): T[][] {
  const points = [...new Set(cuts.map((c) => c % (events.length + 1)))].sort((a, b) => a - b);
  const batches: T[][] = [];
  let start = 0;
  for (const point of [...points, events.length]) {
    if (point > start) batches.push(events.slice(start, point));
    start = Math.max(start, point);
  }
  return batches;
}
