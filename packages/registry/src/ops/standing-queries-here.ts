import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMemError } from '@mem/core';
import type { StandingQueries } from '@mem/ingest';
import type { RegistryContext } from '../context.js';
import type { Ingest } from '../ingest-module.js';

interface Known {
  stamp: string;
  queries: StandingQueries;
}
type Resolved = Map<string, Known>;

/** Per registry: each project's standing queries, with the stamp of the file they were read from. */
const resolved = new WeakMap<RegistryContext, Resolved>();

/**
 * loadStandingQueries, read again only when `queries/<project>.yaml` moved (size, mtime or
 * inode): a query judged its lines' freshness by parsing the YAML and resolving every source
 * on each request (0.37 of 9.6 ms CPU per query on the demo). A refusal, or a file with a glob
 * source, is not kept, so a
 * source directory made later is seen on the next call. A kept resolution is used only while
 * every source it resolved is still there (one stat each; loadStandingQueries's own test):
 * a source directory or file removed later makes the project's file read again, so a warm
 * `mem serve` and a fresh CLI give one answer — not here, the project's lines not judged
 * (standingQueriesHere) — instead of the warm one judging every line of it `unknown`.
 */
export function resolvedStandingQueries(
  ctx: RegistryContext,
  project: string,
  loadStandingQueries: Ingest['loadStandingQueries'],
): StandingQueries {
  const file = join(ctx.engine.paths.queriesDir, `${project}.yaml`);
  let stamp: string | null = null;
  try {
    const info = statSync(file);
    stamp = `${info.size}:${info.mtimeMs}:${info.ino}`;
  } catch {
    // No file: loadStandingQueries names it in its refusal.
  }
  const byProject: Resolved = resolved.get(ctx) ?? new Map<string, Known>();
  resolved.set(ctx, byProject);
  const known = byProject.get(project);
  if (stamp !== null && known?.stamp === stamp && stillHere(known.queries)) return known.queries;
  const queries = loadStandingQueries(ctx.engine.paths.queriesDir, project, { config: ctx.config });
  // A glob is expanded when the file is loaded: kept, a session file made later would never be
  // looked for (its citations would read as gone). Such a project is loaded on every call.
  if (stamp !== null && !queries.sources.some((s) => s.globbed))
    byProject.set(project, { stamp, queries });
  return queries;
}

/**
 * The project's standing queries as this machine resolves them. Trigger: the file names a
 * source directory that is not here (a data root copied without its transcripts). Why: like
 * a project fed over HTTP, there is nothing on this disk to judge against, and recall must
 * not fail for it, nor `mem review scan`'s other detectors. Outcome: null, the project's lines
 * are not judged.
 */
export function standingQueriesHere(
  ctx: RegistryContext,
  project: string,
  loadStandingQueries: Ingest['loadStandingQueries'],
): StandingQueries | null {
  try {
    return resolvedStandingQueries(ctx, project, loadStandingQueries);
  } catch (error) {
    if (isMemError(error) && error.code === 'CONFIG_INVALID') return null;
    throw error;
  }
}

/** Whether each source a load resolved is still there, as loadStandingQueries checks it. */
function stillHere(queries: StandingQueries): boolean {
  return queries.sources.every((source) => {
    if (source.dir !== undefined) {
      try {
        return statSync(source.dir).isDirectory();
      } catch {
        return false;
      }
    }
    return (source.files ?? []).every((file) => existsSync(file));
  });
}
