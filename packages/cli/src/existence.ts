import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { MemError, SYSTEM_PROJECT } from '@mem/core';
import type { DataRoot, Engine } from '@mem/engine';

/*
 * What a reading command may assume exists, so that a typo in --root or --project is an error
 * (NOT_FOUND naming it) and never an empty "ok" that also creates what it looked at.
 *
 * A data root exists when its directory holds `log/` (the source of truth) or `queries/` (the
 * standing questions a root has before its first ingest). A project exists when it has a
 * journal under `log/`, standing questions in `queries/<project>.yaml`, or was registered in
 * `_system` (`mem project add`). A writing command naming a project checks it too, unless it
 * may be the project's first write (`log append`, `remember`, `items add`, `ref add`, `project
 * add`: an operation's `startsProject`), which creates what it writes.
 */

/** The entry at `path`, or undefined where there is none, also under a file (ENOTDIR: `--root` naming a file). */
function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function isDirectory(path: string): boolean {
  return statIfAny(path)?.isDirectory() ?? false;
}

function isFile(path: string): boolean {
  return statIfAny(path)?.isFile() ?? false;
}

/**
 * INVALID_INPUT naming `root` when it, or a directory above it, is a file: no command can read
 * or create a data root there. Why a check of its own: otherwise each command fails on its first
 * file operation with a bare `ENOTDIR … stat 'ROOT/log'`.
 */
export function refuseFileRoot(root: string): void {
  let stat: Stats | undefined;
  try {
    stat = statSync(root, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
    throw new MemError(
      'INVALID_INPUT',
      `the data root ${root} is under a file, not a directory (--root or $MEM_ROOT names the data root)`,
      { root },
    );
  }
  if (stat && !stat.isDirectory())
    throw new MemError(
      'INVALID_INPUT',
      `the data root ${root} is a file, not a directory (--root or $MEM_ROOT names the data root)`,
      { root },
    );
}

/** NOT_FOUND naming the path, unless `paths` is a data root. Reads only. */
export function requireDataRoot(paths: DataRoot): void {
  if (isDirectory(paths.logDir) || isDirectory(paths.queriesDir)) return;
  throw new MemError(
    'NOT_FOUND',
    `no data root at ${paths.root} (it has neither log/ nor queries/; --root or $MEM_ROOT names the data root)`,
    { root: paths.root },
  );
}

/**
 * NOT_FOUND naming the first of `projects` that does not exist under the engine's root, with the
 * root's projects and the nearest by spelling (`--project dmeo`: did you mean demo?). Reads only.
 */
export async function requireProjects(engine: Engine, projects: readonly string[]): Promise<void> {
  if (projects.length === 0) return;
  const journals = new Set(await engine.projects());
  let registered: Set<string> | undefined;
  for (const project of projects) {
    if (journals.has(project) || isFile(join(engine.paths.queriesDir, `${project}.yaml`))) continue;
    registered ??= await registeredProjects(engine);
    if (registered.has(project)) continue;
    const [missing] = await newProjects(engine, [project]);
    const hint = missing ? knownHint(missing) : '';
    throw new MemError(
      'NOT_FOUND',
      `no project ${JSON.stringify(project)} under ${engine.paths.root} (no log, no queries/${project}.yaml, not registered)${hint ? `; ${hint}` : ''}`,
      {
        project,
        root: engine.paths.root,
        known: missing?.known ?? [],
        nearest: missing?.nearest ?? null,
      },
    );
  }
}

/** The projects `mem project add` registered: read from the `_system` journal, not a projection, so nothing is built to answer. */
async function registeredProjects(engine: Engine): Promise<Set<string>> {
  const names = new Set<string>();
  for await (const { event } of engine.read(SYSTEM_PROJECT)) {
    if (event.type === 'project_added') names.add(event.name);
  }
  return names;
}

/** What a write is about to start: a project of `projects` with no journal, no standing questions and no registration. */
export interface NewProject {
  project: string;
  /** The projects the root has (journal, queries file or registration), by name. */
  known: string[];
  /** The known project nearest by spelling (at most two edits away), when there is one. */
  nearest: string | null;
}

/**
 * The projects among `projects` a write would start, each with the root's projects beside it:
 * a write may start a project (HTTP-only projects start so), so a typo in --project is said,
 * never refused. Reads only.
 */
export async function newProjects(
  engine: Engine,
  projects: readonly string[],
): Promise<NewProject[]> {
  if (projects.length === 0) return [];
  const known = new Set(await engine.projects());
  for (const name of statIfAny(engine.paths.queriesDir)?.isDirectory()
    ? readdirSync(engine.paths.queriesDir)
    : [])
    if (name.endsWith('.yaml')) known.add(name.slice(0, -'.yaml'.length));
  for (const name of await registeredProjects(engine)) known.add(name);
  known.delete(SYSTEM_PROJECT);
  const names = [...known].sort();
  return [...new Set(projects)]
    .filter((project) => !known.has(project))
    .map((project) => ({ project, known: names, nearest: nearestName(project, names) }));
}

/** The name of `names` fewest edits from `name` (two at most), the first by name on a tie; else null. */
function nearestName(name: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of names) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/**
 * Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: the optimal string
 * alignment distance, so `shpo` is one edit from `shop`. Written here: the one function a
 * typo hint needs, where a dependency (fast-levenshtein: no swaps) would count `shpo` as two.
 */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** `known: shop, …; did you mean shop?`, or '' for a root with no projects. */
function knownHint({ known, nearest }: NewProject): string {
  const shown = known.slice(0, 8).join(', ') + (known.length > 8 ? ', …' : '');
  return [
    ...(known.length > 0 ? [`known: ${shown}`] : []),
    ...(nearest !== null ? [`did you mean ${nearest}?`] : []),
  ].join('; ');
}

/** The stderr line for a project a write started: `new project shpo (known: shop, …; did you mean shop?)`. */
export function newProjectLine(started: NewProject): string {
  const hint = knownHint(started);
  return `new project ${started.project}${hint ? ` (${hint})` : ''}`;
}
