import { statSync, type Stats } from 'node:fs';
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

/** NOT_FOUND naming the first of `projects` that does not exist under the engine's root. Reads only. */
export async function requireProjects(engine: Engine, projects: readonly string[]): Promise<void> {
  if (projects.length === 0) return;
  const journals = new Set(await engine.projects());
  let registered: Set<string> | undefined;
  for (const project of projects) {
    if (journals.has(project) || isFile(join(engine.paths.queriesDir, `${project}.yaml`))) continue;
    registered ??= await registeredProjects(engine);
    if (registered.has(project)) continue;
    throw new MemError(
      'NOT_FOUND',
      `no project ${JSON.stringify(project)} under ${engine.paths.root} (no log, no queries/${project}.yaml, not registered)`,
      { project, root: engine.paths.root },
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
